import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsOptional, ValidateNested } from 'class-validator';
import { PspTransactionRequestDto } from '../http/psp/psp-transaction.request.dto';

export const PSP_CHECKPOINTS = ['pspBeforeAuth', 'pspAfterAuth'] as const;
export type PspCheckpoint = (typeof PSP_CHECKPOINTS)[number];

/** `ringfence.ingest.transaction.updated.v1`: one update of a payment-processor transaction. */
export class TransactionUpdatedEvent {
  /** The payload's timestamp, normalised to epoch milliseconds. */
  @IsInt() timestamp!: number;
  @IsOptional() @IsIn(PSP_CHECKPOINTS) checkpoint?: PspCheckpoint;
  @IsDefined() @ValidateNested() @Type(() => PspTransactionRequestDto) request!: PspTransactionRequestDto;
}
