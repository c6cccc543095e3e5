import { IsOptionalNested } from '../../validation/nested.decorator';
import { IsOptionalAmount, IsOptionalFlag, IsOptionalKeyText, IsOptionalMcc, IsOptionalText, IsRequiredIdentifier } from '../../validation/scalar-fields.decorator';
import { IsOptionalCurrency, IsOptionalIdentifier } from '../shared/common-fields';

/** `transaction.avsResultCode`: the address-verification result, per address part. */
export class AvsResultCodeDto {
  @IsOptionalText('STRONG_MATCH', 'Result for the postal code; the value set is not shown by the specification.') postalCode?: string;
  @IsOptionalText('STRONG_MATCH', 'Result for the street; the value set is not shown by the specification.') street?: string;
}

/**
 * The payment-processor transaction (`transaction`, required) of POST /psp/transaction: one
 * attempt to charge or refund a payment method (specification §2.2, "PSP transaction"). Updates
 * of the same `transactionId` merge into one record, so authorisation and capture may arrive as
 * separate calls. The value sets of `type`, `cvvResultCode` and `declineCode` are not shown by the
 * specification, so any string is taken.
 */
export class PspTransactionDto {
  @IsRequiredIdentifier('tx-0001', 'Identifies the transaction across its updates.') transactionId!: string;

  @IsOptionalIdentifier('tx-0000', 'The transaction this one follows from, e.g. the authorisation a capture or refund belongs to.')
  parentTransactionId?: string;

  @IsOptionalText('auth-1', 'Identifies this step (authorisation, capture, …) within the transaction.') stepId?: string;
  @IsOptionalText('auth', 'The kind of step, e.g. `auth`, `capture`, `refund`.') type?: string;
  @IsOptionalAmount(1999) amount?: number;
  @IsOptionalCurrency() currency?: string;
  @IsOptionalFlag(true, 'Whether the step succeeded (e.g. the authorisation was approved).') success?: boolean;
  @IsOptionalFlag(false, 'Whether only part of the amount was authorised or captured.') partial?: boolean;
  @IsOptionalText('LOST_OR_STOLEN', 'Why the step was declined, as the processor reports it.') declineCode?: string;
  @IsOptionalText('adyen', 'The payment gateway that processed the step.') gateway?: string;
  @IsOptionalText('8835612345678901', "The gateway's reference of the transaction.") gatewayReference?: string;
  @IsOptionalText('74537605200000000000123', 'Acquirer reference number.') arn?: string;

  @IsOptionalMcc() mcc?: string;

  @IsOptionalText('Ringfence Eats Ltd') merchantName?: string;
  @IsOptionalText('GBR', 'Country of the merchant, three-letter code.') merchantCountryCode?: string;
  @IsOptionalKeyText('000000123456789', 'Merchant identifier at the acquirer.') mid?: string;
  @IsOptionalText('ACQ-0042', 'Identifier of the acquirer.') acquirerId?: string;
  @IsOptionalText('412345', 'Bank identification number of the acquirer.') acquirerBin?: string;
  @IsOptionalText('GBR', 'Country of the acquirer, three-letter code.') acquirerCountryCode?: string;

  @IsOptionalNested(() => AvsResultCodeDto, 'Address-verification result.')
  avsResultCode?: AvsResultCodeDto;

  @IsOptionalText('PASS', 'Card-verification-value check result; the value set is not shown by the specification.') cvvResultCode?: string;
}
