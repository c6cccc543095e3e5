import { IsOptionalAmount, IsOptionalFlag, IsOptionalText, IsRequiredIdentifier } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalCurrency, IsOptionalIdentifier } from '../shared/common-fields';

/**
 * A dispute (chargeback) of a payment-processor transaction (specification §2.2, "Dispute
 * (PSP)"): the body of POST /psp/dispute and the `dispute` of POST /v2/connect. Outcome and stage
 * are free strings: the specification shows only `LOST` and `CHARGEBACK`, and ADR-0004 treats
 * outcome `WON` and stage `CHARGEBACK_REVERSED` as forgiving the dispute.
 */
export class PspDisputeDto {
  @IsRequiredIdentifier('dsp-20251122-0042', "The processor's or merchant's identifier of the dispute.") disputeId!: string;
  @IsOptionalIdentifier('tx-0001', 'The disputed transaction; links the dispute to its customer.') transactionId?: string;
  @IsOptionalAmount(1999, 'Disputed amount: an integer in minor units of the currency.') amount?: number;
  @IsOptionalCurrency() currency?: string;
  @IsOptionalText('74537605200000000000123', 'Acquirer reference number of the disputed transaction.') arn?: string;
  @IsOptionalTimestamp('When the dispute was raised (Unix time).') disputeTime?: number;
  @IsOptionalText('adyen', 'The payment gateway that reported the dispute.') gateway?: string;
  @IsOptionalText('DSP-8834-2211', "The gateway's reference of the dispute.") gatewayReference?: string;
  @IsOptionalFlag(false, 'Whether liability shifted to the issuer (e.g. after 3-D Secure).') liabilityShifted?: boolean;
  @IsOptionalText('LOST', 'Outcome so far; value seen: `LOST`. `WON` forgives the dispute: it no longer makes the customer a fraudster.') outcome?: string;
  @IsOptionalText('fraudulent', "The scheme's or issuer's dispute reason.") reason?: string;
  @IsOptionalText('CHARGEBACK', 'Stage of the dispute; value seen: `CHARGEBACK`. `CHARGEBACK_REVERSED` forgives it: it no longer makes the customer a fraudster.') stage?: string;
}
