import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOptionalAmount } from '../../validation/scalar-fields.decorator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalCurrency, IsOptionalIdentifier } from '../shared/common-fields';
import { VOUCHER_TYPES, type VoucherType } from './voucher.dto';

/** `voucherRedemption` of POST /v2/paymentmethod/voucher (specification §2.2, "Voucher redemption"). */
export class VoucherRedemptionDto {
  @ApiProperty({ example: 'WELCOME-ADA-25', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, description: 'The code redeemed. Required.' })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) voucherCode!: string;
  @IsOptionalIdentifier('pm-voucher-0001', 'The merchant’s identifier of the redemption as a payment method.') paymentMethodId?: string;
  @IsOptionalTimestamp('When the voucher was redeemed (Unix time).') redemptionTime?: number;
  @ApiPropertyOptional({
    example: true,
    description: 'Whether the redemption succeeded. Absent counts as successful for the voucher-abuse check; `false` does not count.',
  })
  @IsOptional() @IsBoolean() success?: boolean;
  @IsOptionalAmount(1000, 'Value redeemed in minor units, integer.') value?: number;
  @IsOptionalCurrency() currency?: string;
  @ApiPropertyOptional({ enum: VOUCHER_TYPES, example: 'REFERRAL', description: 'The same values as `voucher.voucherType`.' })
  @IsOptional() @IsIn(VOUCHER_TYPES, { message: `must be one of ${VOUCHER_TYPES.join(', ')}` }) voucherType?: VoucherType;
}
