import { IsIn, IsOptional } from 'class-validator';
import { PSP_CHECKPOINTS, type PspCheckpoint } from '@ringfence/contracts';

export class PspTransactionQueryDto {
  @IsOptional()
  @IsIn(PSP_CHECKPOINTS, { message: `must be one of ${PSP_CHECKPOINTS.join(', ')}` })
  checkpoint?: PspCheckpoint;
}
