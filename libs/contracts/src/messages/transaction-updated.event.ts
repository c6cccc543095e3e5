import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PspTransactionRequestDto } from '../http/psp/psp-transaction.request.dto';

export const PSP_CHECKPOINTS = ['pspBeforeAuth', 'pspAfterAuth'] as const;
export type PspCheckpoint = (typeof PSP_CHECKPOINTS)[number];

/**
 * `ringfence.ingest.transaction.updated.v1`: one update of a payment-processor transaction, as
 * sent (times in epoch milliseconds). It is also the request of the transaction checkpoint.
 */
export class TransactionUpdatedEvent extends PspTransactionRequestDto {
  /** The checkpoint asked for, if any (the /async path records its decision on the feed only). */
  @ApiPropertyOptional({
    enum: PSP_CHECKPOINTS,
    description: 'Present on updates sent to /psp/transaction/async with a checkpoint: the scoring service scores them for the decision feed.',
  })
  @IsOptional() @IsIn(PSP_CHECKPOINTS) checkpoint?: PspCheckpoint;
}
