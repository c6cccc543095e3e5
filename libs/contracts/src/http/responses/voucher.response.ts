import { ApiProperty } from '@nestjs/swagger';

/** POST /v2/voucher (specification §4.11): the voucher was stored. */
export class VoucherResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
}

/** Specification §4.12: the voucher-check answers. */
export const VOUCHER_CHECK_RECOMMENDATIONS = ['OK', 'ABUSE'] as const;
export type VoucherCheckRecommendation = (typeof VOUCHER_CHECK_RECOMMENDATIONS)[number];

/** POST /v2/voucher/check (specification §4.12): exactly `timestamp` and `recommendation`. */
export class VoucherCheckResponseDto {
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({
    enum: VOUCHER_CHECK_RECOMMENDATIONS,
    example: 'OK',
    description: '`ABUSE` when the successful redemptions of the code within the customer’s network reach the threshold; else `OK` (also for an unknown customer).',
  })
  recommendation!: VoucherCheckRecommendation;
}
