import type { ExplanationModelDto } from '@ringfence/contracts';
import { type ScoringModel, calibratedProbability, continuousScaledScore } from '@ringfence/learning';
import { type FeatureValue, type ModelScore, type ScoreContribution, type Thresholds, actionFor, contributionsInPoints } from '@ringfence/scoring-engine';

/** A learned model, loaded: the id decisions record as their `modelVersion`, whose it is, and its base score. */
export interface LoadedModel {
  modelId: string;
  /** The account's own model, or the default shipped with the product. */
  kind: 'account' | 'shipped';
  model: ScoringModel;
  /** The score of the model's average log-odds, where its explanations start. */
  baseScore: number;
}

/** A score with what explains it: which model gave it and where its contributions start. */
export interface ExplainedScore {
  modelVersion: string;
  /** A learned model's identity; absent: the built-in model (`modelIdentityOf`). */
  learned?: ExplanationModelDto;
  baseScore: number;
  model: ModelScore;
}

/** The model that scored, as explanations name it: a learned one's id, kind and algorithm, or the built-in model. */
export function modelIdentityOf({ learned, modelVersion }: Pick<ExplainedScore, 'learned' | 'modelVersion'>): ExplanationModelDto {
  return learned ?? { id: modelVersion, kind: 'built-in', algorithm: 'additive' };
}

/** A loaded model's identity: its id, whose it is and its algorithm (the predictor's kind). */
export function identityOfLoaded({ modelId, kind, model }: LoadedModel): ExplanationModelDto {
  return { id: modelId, kind, algorithm: model.predictor.kind };
}

/** Contributions kept per explanation: it lists the largest five either way. */
const KEPT_CONTRIBUTIONS = 10;

/** Also builds the trees' explanation table (milliseconds), so the first checkpoint the model scores does not. */
export function loadedModel(modelId: string, model: ScoringModel, kind: LoadedModel['kind']): LoadedModel {
  const { expectedValue } = model.explain(model.vectorOf({}), 0);
  return { modelId, kind, model, baseScore: model.scoreOfProbability(calibratedProbability(model.calibration, expectedValue)) };
}

/**
 * A learned model's score of a checkpoint's feature vector, the account's action for it, and its
 * contributions, which the decision event carries (docs/model.md, "Explanations"): exact TreeSHAP
 * for trees, coefficient × standardised value for a logistic regression. The trees' explanation
 * table makes theirs cost about half a millisecond for 300 trees (`npm run bench:model`), so the
 * checkpoint pays for them instead of every reader.
 */
export function learnedScore(loaded: LoadedModel, features: Readonly<Record<string, FeatureValue>>, thresholds: Thresholds): ExplainedScore {
  const vector = loaded.model.vectorOf(features);
  return explainedScore(loaded, features, vector, loaded.model.scoreOf(vector), thresholds);
}

/**
 * What scores a checkpoint whose tenant activated no model of its own: the built-in model,
 * unless the default model shipped for the checkpoint scores higher. Trained on simulated
 * traffic, the shipped model adds the fraud it learned to see and never takes away what the
 * built-in model flags (docs/model.md, "The default model"). Its explanation is computed only
 * when its score is the one answered.
 */
export function withShippedModel(builtIn: ExplainedScore, shipped: LoadedModel | undefined, features: Readonly<Record<string, FeatureValue>>, thresholds: Thresholds): ExplainedScore {
  if (shipped === undefined) return builtIn;
  const vector = shipped.model.vectorOf(features);
  const score = shipped.model.scoreOf(vector);
  return score > builtIn.model.score ? explainedScore(shipped, features, vector, score, thresholds) : builtIn;
}

/**
 * The contributions (points of the score, largest first) of a learned model's score of a feature vector;
 * each shows the feature's value as the checkpoint computed it (a flag as true/false, not 1/0).
 */
export function explainLearned(loaded: LoadedModel, features: Readonly<Record<string, FeatureValue>>): ScoreContribution[] {
  return contributionsOf(loaded, features, loaded.model.vectorOf(features));
}

function explainedScore(loaded: LoadedModel, features: Readonly<Record<string, FeatureValue>>, vector: Float32Array, score: number, thresholds: Thresholds): ExplainedScore {
  return {
    modelVersion: loaded.modelId,
    learned: identityOfLoaded(loaded),
    baseScore: loaded.baseScore,
    model: { score, action: actionFor(score, thresholds), contributions: contributionsOf(loaded, features, vector) },
  };
}

/**
 * The largest contributions, in points of the score (`contributionsInPoints`): the model gives
 * them in log-odds, which add up to its margin; the calibration and the score scale bend that
 * sum into the score, so each is rescaled by the score's rise over the base per unit of margin,
 * and the base and every contribution add up to the score, as the built-in model's points do.
 * The rise is measured on the score's continuous line (`continuousScaledScore`), so that a
 * contribution too small to move the whole-number score keeps its direction; the explanation's
 * `others` takes up the rounding.
 */
function contributionsOf({ model }: LoadedModel, features: Readonly<Record<string, FeatureValue>>, vector: Float32Array): ScoreContribution[] {
  const { contributions, margin, expectedValue } = model.explain(vector, KEPT_CONTRIBUTIONS);
  const inLogOdds = contributions.map(({ feature, contribution }) => ({ feature, value: features[feature] ?? null, contribution }));
  const onTheLine = (at: number) => continuousScaledScore(Math.min(1, Math.max(0, calibratedProbability(model.calibration, at))) * 100, model.scale);
  return contributionsInPoints(inLogOdds, margin - expectedValue, onTheLine(expectedValue), onTheLine(margin));
}
