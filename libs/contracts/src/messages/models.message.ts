import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { MODEL_ID_PATTERN, TrainModelRequestDto } from '../http/models/model.request.dto';
import type { ModelDto } from '../http/models/model.response.dto';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../checkpoints/checkpoint-names';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';

// A trained model's id, or default-<checkpoint> (the shipped one: activating it deactivates the trained ones).
const MODEL_ID = MODEL_ID_PATTERN;

/** `ringfence.rpc.scoring.train-model.v1`: answered once the model is recorded as training; training goes on after. */
export class TrainModelRequest extends TrainModelRequestDto {
  /** The API key that asked. */
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) author!: string;
}

/** `ringfence.rpc.scoring.read-models.v1`: the data set's models (of one checkpoint when given), newest first. */
export class ReadModelsRequest {
  @IsOptional() @IsIn(RULE_CHECKPOINTS) checkpoint?: RuleCheckpoint;
}

/** `ringfence.rpc.scoring.read-model.v1` and `…activate-model.v1`: one model. */
export class ModelRequest {
  @IsString() @Matches(MODEL_ID) modelId!: string;
}

/** The model; null when the data set has none of that id. */
export interface ModelReply {
  model: ModelDto | null;
}

export interface ModelsReply {
  models: ModelDto[];
}

/**
 * `ringfence.config.model.activated.v1`: a model now scores its checkpoint (and the one before
 * it no longer does). Every scoring instance loads it from the models table into its model
 * book. The envelope names the account and data set.
 */
export class ModelActivatedEvent {
  @ApiProperty({ example: 'mdl_4fQ2kq1ZxW0bY7nP3sTu' }) @IsString() @Matches(MODEL_ID) modelId!: string;
  @ApiProperty({ enum: RULE_CHECKPOINTS, example: 'pspBeforeAuth' }) @IsIn(RULE_CHECKPOINTS) checkpoint!: RuleCheckpoint;
}
