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

/** A trained model's id, or `default-<checkpoint>`: the default model shipped for that checkpoint (GET /v2/models lists it). */
export const MODEL_ID_PATTERN = new RegExp(`^(mdl_[A-Za-z0-9_-]{1,64}|default-(${RULE_CHECKPOINTS.join('|')}))$`);

/** The id the models API gives the default model shipped for a checkpoint. */
export const shippedModelId = (checkpoint: RuleCheckpoint): string => `default-${checkpoint}`;

/** The `:modelId` of the models routes. */
export class ModelPathDto {
  @ApiProperty({ example: 'mdl_4fQ2…', description: 'A trained model\'s id (`mdl_…`), or `default-<checkpoint>` for the default model shipped for a checkpoint.' })
  @IsString() @Matches(MODEL_ID_PATTERN, { message: 'modelId must be a model id (mdl_…, or default-<checkpoint>)' }) modelId!: string;
}
