import { IsOptionalAmount, IsOptionalFlag, IsOptionalKeyText, IsOptionalMcc, IsOptionalText, IsRequiredIdentifier } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalCurrency, IsOptionalIdentifier } from '../shared/common-fields';

/**
 * One item of `transactions` of POST /v2/refund: an attempt to refund a payment method for the
 * order (specification §2.2, "Transaction record (refund)"). `transactionId` is required, as for
 * every transaction (ADR-0009): it is what repeated attempts merge on.
 */
export class RefundTransactionDto {
  @IsRequiredIdentifier('tx-rfd-0001', 'Identifies the refund transaction.') transactionId!: string;
  @IsOptionalTimestamp('When the attempt was made (Unix time).') time?: number;
  @IsOptionalAmount(1099) amount?: number;
  @IsOptionalCurrency() currency?: string;
  @IsOptionalText('refund', 'Value seen: `refund`.') type?: string;
  @IsOptionalIdentifier('pm-card-7731', 'The payment method refunded to; one of the request\'s `paymentMethods`.') paymentMethodId?: string;
  @IsOptionalText('adyen', 'The payment gateway that processed the refund.') gateway?: string;
  @IsOptionalText('8835612345678902', "The gateway's reference of the refund.") gatewayReference?: string;
  @IsOptionalFlag(true, 'Whether the refund attempt succeeded.') success?: boolean;
  @IsOptionalMcc() mcc?: string;
  @IsOptionalKeyText('000000123456789', 'Merchant identifier at the acquirer.') mid?: string;
  @IsOptionalText('ACQ-0042', 'Identifier of the acquirer.') acquirerId?: string;
  @IsOptionalText('412345', 'Bank identification number of the acquirer.') acquirerBin?: string;
  @IsOptionalText('GBR', 'Country of the acquirer, three-letter code.') acquirerCountryCode?: string;
}
