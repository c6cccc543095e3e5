import { type ScoringModel, calibratedProbability } from '@ringfence/learning';
import { type FeatureValue, type ModelScore, type ScoreContribution, type Thresholds, actionFor } from '@ringfence/scoring-engine';

/** A learned model, loaded: the id decisions record as their `modelVersion`, and its base score. */
export interface LoadedModel {
  modelId: string;
  model: ScoringModel;
  /** The score of the model's average log-odds, where its explanations start. */
  baseScore: number;
}

/** A score with what explains it: which model gave it and where its contributions start. */
export interface ExplainedScore {
  modelVersion: string;
  baseScore: number;
  model: ModelScore;
}

/** Contributions kept per explanation: it lists the largest five either way. */
const KEPT_CONTRIBUTIONS = 10;

export function loadedModel(modelId: string, model: ScoringModel): LoadedModel {
  const { expectedValue } = model.explain(model.vectorOf({}), 0);
  return { modelId, model, baseScore: model.scoreOfProbability(calibratedProbability(model.calibration, expectedValue)) };
}

/**
 * A learned model's score of a checkpoint's feature vector and the account's action for it,
 * without its contributions: exact TreeSHAP costs about 4 ms a decision for 300 trees, two
 * hundred times the score, so a checkpoint does not pay for it. `explainLearned` gives them when
 * a decision is read (`GET /v2/decisions/:scoreId`), from the features the decision recorded.
 */
export function learnedScore({ modelId, model, baseScore }: LoadedModel, features: Readonly<Record<string, FeatureValue>>, thresholds: Thresholds): ExplainedScore {
  const score = model.scoreOf(model.vectorOf(features));
  return { modelVersion: modelId, baseScore, model: { score, action: actionFor(score, thresholds), contributions: [] } };
}

/**
 * The exact TreeSHAP contributions (log-odds, largest first) of a learned model's score of a
 * feature vector; each shows the feature's value as the checkpoint computed it (a flag as
 * true/false, not 1/0).
 */
export function explainLearned({ model }: LoadedModel, features: Readonly<Record<string, FeatureValue>>): ScoreContribution[] {
  return model.explain(model.vectorOf(features), KEPT_CONTRIBUTIONS).contributions.map(({ feature, contribution }) => ({ feature, value: features[feature] ?? null, contribution }));
}
