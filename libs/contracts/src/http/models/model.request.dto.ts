import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../../checkpoints/checkpoint-names';

/** POST /v2/models/train (ADR-0012): a model of one checkpoint from the data set's decisions of a period. */
export class TrainModelRequestDto {
  @ApiProperty({ enum: RULE_CHECKPOINTS, example: 'pspBeforeAuth', description: 'The checkpoint whose decisions it learns from and which it scores once active.' })
  @IsIn(RULE_CHECKPOINTS, { message: `must be one of ${RULE_CHECKPOINTS.join(', ')}` }) checkpoint!: RuleCheckpoint;

  @ApiPropertyOptional({ type: 'integer', example: 1763800000000, description: 'Decisions with `from <= timestamp` (payload time, epoch ms); default: the first.' })
  @IsOptional() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) from?: number;

  @ApiPropertyOptional({ type: 'integer', example: 1766400000000, description: 'Decisions with `timestamp < to`; default: now.' })
  @IsOptional() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) to?: number;
}

/** GET /v2/models?checkpoint= */
export class ModelListQueryDto {
  @ApiPropertyOptional({ enum: RULE_CHECKPOINTS, description: 'Only the models of this checkpoint.' })
  @IsOptional() @IsIn(RULE_CHECKPOINTS, { message: `must be one of ${RULE_CHECKPOINTS.join(', ')}` }) checkpoint?: RuleCheckpoint;
}

/** The `:modelId` of the models routes. */
export class ModelPathDto {
  @ApiProperty({ example: 'mdl_4fQ2…' }) @IsString() @Matches(/^mdl_[A-Za-z0-9_-]{1,64}$/, { message: 'modelId must be a model id (mdl_…)' }) modelId!: string;
}
