import type { Checkpoint } from '@ringfence/contracts';
import { BASE_SCORE, type FeatureVector, type RuleTenant, SCORE_MODEL_VERSION, scoreFeatures, thresholdsFor } from '@ringfence/scoring-engine';
import { type ExplainedScore, learnedScore, withShippedModel } from '../models/learned-score';
import type { ModelBook } from '../models/model-book';
import type { CheckpointRequest } from './checkpoint-request';

/** The model stage: the score over the feature vector (docs/scoring.md), with the account's thresholds for the checkpoint. */
export class ModelStage {
  constructor(private readonly modelBook: ModelBook) {}

  /**
   * The score of the learned model the tenant activated for its checkpoint (the model book, in
   * memory); without one, the built-in model's of docs/scoring.md, or the shipped default
   * model's where it is higher (`withShippedModel`). The built-in model reads the vector itself;
   * a learned one reads the features by name from their record.
   */
  score(tenant: RuleTenant, catalogueCheckpoint: Checkpoint, request: CheckpointRequest, features: FeatureVector): ExplainedScore {
    const thresholds = thresholdsFor(catalogueCheckpoint, request.settings.scoreThresholds);
    const checkpoint = request.ruleCheckpoint;
    const learned = checkpoint === null ? undefined : this.modelBook.modelOf(tenant, checkpoint);
    if (learned !== undefined) return learnedScore(learned, features.toRecord(), thresholds);
    const builtIn: ExplainedScore = { modelVersion: SCORE_MODEL_VERSION, baseScore: BASE_SCORE, model: scoreFeatures(features, catalogueCheckpoint, thresholds) };
    const shipped = checkpoint === null ? undefined : this.modelBook.shippedModelOf(checkpoint);
    return shipped === undefined ? builtIn : withShippedModel(builtIn, shipped, features.toRecord(), thresholds);
  }
}
