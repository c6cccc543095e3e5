import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOptionalAmount } from '../../validation/scalar-fields.decorator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalCurrency, IsOptionalIdentifier } from '../shared/common-fields';

/** Specification §2.2: the kinds of voucher. */
export const VOUCHER_TYPES = ['REFERRAL', 'REACTIVATION', 'GENERAL', 'STAFF'] as const;
export type VoucherType = (typeof VOUCHER_TYPES)[number];

/** A voucher, created by POST /v2/voucher whenever the merchant issues a new code (specification §2.2, "Voucher"). */
export class VoucherDto {
  @ApiProperty({
    example: 'WELCOME-ADA-25',
    minLength: 1,
    maxLength: MAX_IDENTIFIER_LENGTH,
    description: 'Unique identifier of the voucher, usually the code a customer enters. Required.',
  })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) voucherCode!: string;
  @IsOptionalIdentifier('cus-61213', 'customerId of the customer who created (owns) the voucher, e.g. the referrer.') referrerId?: string;
  @IsOptionalTimestamp('Time after which the voucher cannot be redeemed (Unix time).') expiry?: number;
  @IsOptionalAmount(1000, 'Value of the voucher in minor units, integer.') value?: number;
  @IsOptionalCurrency() currency?: string;
  @ApiPropertyOptional({ enum: VOUCHER_TYPES, example: 'REFERRAL' })
  @IsOptional() @IsIn(VOUCHER_TYPES, { message: `must be one of ${VOUCHER_TYPES.join(', ')}` }) voucherType?: VoucherType;
  @IsOptionalAmount(500, 'Amount (minor units) the voucher owner gets when the voucher is used.') referralValue?: number;
  @IsOptionalTimestamp('When the voucher was created (Unix time).') creationTime?: number;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { campaign: 'spring-2026', channel: 'instagram' },
    description:
      'Free-form JSON object for fraud-relevant extra data. The specification does not name this field; we call it `custom`. It is kept as sent (any JSON values), not validated inside.',
  })
  @IsOptional() @IsObject() custom?: Record<string, unknown>;
}
