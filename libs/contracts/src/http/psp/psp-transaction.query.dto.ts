import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ExplainQueryDto } from '../shared/query-parameters';
import { PSP_CHECKPOINTS, type PspCheckpoint } from '../../checkpoints/checkpoint-names';

/** The query of POST /psp/transaction and /psp/transaction/async (specification §4.3). */
export class PspTransactionQueryDto extends ExplainQueryDto {
  @ApiPropertyOptional({
    enum: PSP_CHECKPOINTS,
    example: 'pspBeforeAuth',
    description: 'Request a recommendation at this checkpoint; without it the update is only ingested.',
  })
  @IsOptional()
  @IsIn(PSP_CHECKPOINTS, { message: `must be one of ${PSP_CHECKPOINTS.join(', ')}` })
  checkpoint?: PspCheckpoint;
}
