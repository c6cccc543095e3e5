import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * `data` of the PSP dispute answer. The specification says only "optional object with details";
 * we echo the identifiers the dispute was recorded under, so a client can correlate the answer
 * with its request and see which transaction (and through it, which customer) it was linked to.
 */
export class PspDisputeReceiptDto {
  @ApiProperty({ example: 'dsp-20251122-0042', description: 'The dispute recorded.' }) disputeId!: string;
  @ApiPropertyOptional({ example: 'tx-0001', description: 'The disputed transaction, when the request named one.' }) transactionId?: string;
}

/** POST /psp/dispute and /psp/dispute/async (specification §4.4). */
export class PspDisputeResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiPropertyOptional({ type: () => PspDisputeReceiptDto }) data?: PspDisputeReceiptDto;
}
