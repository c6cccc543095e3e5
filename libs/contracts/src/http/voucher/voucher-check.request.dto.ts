import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalEventType } from '../shared/common-fields';
import { IsIntegerInRange, IsWithinSafeIntegers, MAX_ACCEPTED_INTEGER } from '../shared/integer-range';

/** The deepest voucher-check search (specification §4.12); also the default when unconfigured. */
export const VOUCHER_CHECK_MAX_DEPTH = 10;

/**
 * POST /v2/voucher/check (specification §4.12, ADR-0004): would this customer's redemption
 * of the code be abuse, counting redemptions of it across the customer's network?
 */
export class VoucherCheckRequestDto {
  @IsTimestamp() timestamp!: number;

  @IsOptionalEventType() eventType?: string;

  @ApiProperty({ example: 'cus-61213', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, description: 'The customer attempting to redeem. Required.' })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId!: string;

  @ApiProperty({ example: 'WELCOME-ADA-25', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, description: 'The code being redeemed. Required.' })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) voucherCode!: string;

  @ApiPropertyOptional({
    example: 'GENERAL',
    description: 'The type of voucher; selects the account’s configured depth and threshold. A free string: the specification does not give the full list here.',
  })
  @IsOptional() @IsString() voucherType?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: VOUCHER_CHECK_MAX_DEPTH,
    example: 3,
    description: 'How many edges to search from the customer. 0 or absent: the account’s configured depth for the voucher type, else 10.',
  })
  @IsOptional() @IsIntegerInRange(0, VOUCHER_CHECK_MAX_DEPTH) depth?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_ACCEPTED_INTEGER,
    example: 3,
    description:
      'Abuse threshold. 0 or absent: the account’s configured threshold, else 3. `ABUSE` when the redemptions found are at least the threshold (the account setting `voucherThresholdComparison: "gt"` makes it "more than").',
  })
  @IsOptional() @IsIntegerInRange(0) @IsWithinSafeIntegers() threshold?: number;
}
