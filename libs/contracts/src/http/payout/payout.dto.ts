import { IsOptionalNested } from '../../validation/nested.decorator';
import { IsOptionalAmount, IsOptionalText, IsRequiredIdentifier } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalCurrency } from '../shared/common-fields';

/** `payout.earnings`: what the payout is made of. Every amount an integer in minor units. */
export class PayoutEarningsDto {
  @IsOptionalCurrency() currency?: string;
  @IsOptionalAmount(152000, 'Earnings before deductions.') totalGrossAmount?: number;
  @IsOptionalAmount(120000, 'Base pay.') baseAmount?: number;
  @IsOptionalAmount(12000, 'Compensation (e.g. for waiting time or cancellations).') compensationAmount?: number;
  @IsOptionalAmount(20000, 'Bonuses and incentives.') bonusAmount?: number;
  @IsOptionalAmount(15200, 'Tax withheld.') withheldTaxAmount?: number;
  @IsOptionalAmount(148000, 'Revenue earned on the platform.') onPlatformRevenue?: number;
  @IsOptionalAmount(131800, 'Earnings after deductions: what is paid out.') totalNetAmount?: number;
  @IsOptionalAmount(5000, "The platform's fee.") feeAmount?: number;
}

/** `payout.revenueSource`: the payout's revenue split by where it came from. Every amount an integer in minor units. */
export class PayoutRevenueSourceDto {
  @IsOptionalAmount(0, 'From advertising.') ads?: number;
  @IsOptionalAmount(2000, 'From referrals.') referral?: number;
  @IsOptionalAmount(0, 'From promotions.') promo?: number;
  @IsOptionalAmount(0, 'From subscriptions.') subscriptions?: number;
  @IsOptionalAmount(150000, 'From purchases.') purchase?: number;
  @IsOptionalAmount(0, 'From anything else.') others?: number;
}

/** `payout` of POST /v2/payout (specification §2.2, "Payout"). `payoutId` is required (ADR-0009). */
export class PayoutDto {
  @IsRequiredIdentifier('pay-2025-11-0193', "The merchant's identifier of the payout.") payoutId!: string;
  @IsOptionalText('CREATED', 'Value seen: `CREATED`.') status?: string;
  @IsOptionalNested(() => PayoutEarningsDto) earnings?: PayoutEarningsDto;
  @IsOptionalNested(() => PayoutRevenueSourceDto) revenueSource?: PayoutRevenueSourceDto;
  @IsOptionalTimestamp('Start of the period the payout covers (Unix time).') periodStart?: number;
  @IsOptionalTimestamp('End of the period the payout covers (Unix time).') periodEnd?: number;
  @IsOptionalTimestamp('When the payout was created (Unix time).') creationTime?: number;
  @IsOptionalTimestamp('When the payout is (or was) paid (Unix time).') payoutTime?: number;
  @IsOptionalText('MONTHLY', 'How often payouts are made; value seen: `MONTHLY`.') schedule?: string;
  @IsOptionalText('SUPPLIER', 'Who asked for the payout; value seen: `SUPPLIER`.') initiatedBy?: string;
  @IsOptionalText('driver.0917@example.com', 'Where the payout notification is sent.') notificationEmail?: string;
}
