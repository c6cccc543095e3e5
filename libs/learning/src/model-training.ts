import { type CalibrationKind, calibratedProbability, fitCalibration, riskScore } from './calibration';
import { averagePrecision, logLoss, metricsAtThreshold, rocAuc } from './classification-metrics';
import { type FeatureColumn, type FeatureMatrix, type LabelledRows, selectRows } from './feature-matrix';
import { type BoostingOptions, type TrainingProgress, trainGradientBoostedTrees } from './gradient-boosting.trainer';
import { type LogisticRegressionOptions, trainLogisticRegression } from './logistic-regression';
import type { MarginPredictor } from './margin-predictor';
import { ScoringModel } from './scoring-model';
import { type ThresholdTargets, suggestScoreScale } from './score-scale-suggestion';
import { timeOrderedSplit } from './time-ordered-holdout';

export type Algorithm = 'gradient-boosted-trees' | 'logistic-regression';

/**
 * Progress of a training: trees built of how many (with the validation loss), or 1 of 1 once a
 * logistic regression is fitted; `algorithm` says which candidate it is about.
 */
export type CandidateProgress = (done: number, total: number, validationLoss: number | null, algorithm: Algorithm) => void;

/** Everything a training run needs; plain data, so it can be posted to a worker thread. */
export interface ModelTrainingRequest {
  algorithm: Algorithm;
  /**
   * Also fit this algorithm on the same examples and the same time split, judge both on the same
   * held-out part, and serve the better (`servedAlgorithm`). Unset: only `algorithm`.
   */
  baseline?: Algorithm;
  /** The matrix's columns, in order (numeric features only: `numericFeatures`). */
  features: FeatureColumn[];
  matrix: FeatureMatrix;
  labels: Uint8Array;
  /** Each example's event time (epoch ms). */
  eventTimes: Float64Array;
  /** The latest share of the examples held out for the metrics (ADR-0012: 0.2). */
  holdoutFraction?: number;
  /** The latest share of the remaining examples used to stop boosting and fit the calibration (0.1). */
  validationFraction?: number;
  /**
   * How margins become probabilities. `auto` (the default): isotonic once the validation part
   * holds `ISOTONIC_MIN_CLASS_EXAMPLES` of each class, Platt scaling below that. Isotonic
   * regression fitted on a few dozen positives is a staircase of a handful of steps: many
   * scores tie and the ranking the trees learnt is lost; Platt's two parameters keep it.
   */
  calibration?: CalibrationKind | 'auto';
  /** The REVIEW and PREVENT score thresholds the metrics are given at (50 and 80). */
  thresholds?: { review: number; prevent: number };
  /** What the score scale's REVIEW and PREVENT aim for (`DEFAULT_THRESHOLD_TARGETS`). */
  thresholdTargets?: ThresholdTargets;
  boosting?: Partial<BoostingOptions>;
  logisticRegression?: Partial<LogisticRegressionOptions>;
}

/** How the model did on the held-out latest examples. */
export interface HoldoutMetrics {
  examples: number;
  positives: number;
  /** ROC AUC of the margins (the model's ranking; calibration's ties would only lower it). */
  auc: number;
  averagePrecision: number;
  /** Log loss of the calibrated probabilities. */
  logLoss: number;
  /** Of the held-out examples scoring at or above PREVENT, the share that are positive. */
  precisionAtPrevent: number;
  /** Of the held-out positives, the share scoring at or above REVIEW. */
  recallAtReview: number;
}

/** One algorithm fitted in a training, judged on the held-out part. */
export interface CandidateMetrics {
  algorithm: Algorithm;
  metrics: HoldoutMetrics;
}

export interface ModelTrainingResult {
  /** The model served: `algorithm`'s. */
  model: ScoringModel;
  algorithm: Algorithm;
  /** The served model's held-out metrics. */
  metrics: HoldoutMetrics;
  /** Every algorithm fitted (the requested one first, then the baseline), on the same held-out part. */
  candidates: CandidateMetrics[];
  trainingExamples: number;
  validationExamples: number;
}

/**
 * Which candidate serves: the requested algorithm (the trees), unless the baseline's average
 * precision on the held-out part is strictly higher; a tie keeps the requested one. Average
 * precision, because fraud is rare: it judges the ranking where the few positives are, which ROC
 * AUC dilutes over the many negatives. A metric that could not be computed counts as the lowest.
 */
export function servedAlgorithm(candidates: readonly CandidateMetrics[]): Algorithm {
  const rank = (candidate: CandidateMetrics) => (Number.isFinite(candidate.metrics.averagePrecision) ? candidate.metrics.averagePrecision : Number.NEGATIVE_INFINITY);
  let served = candidates[0];
  for (const candidate of candidates.slice(1)) if (rank(candidate) > rank(served)) served = candidate;
  return served.algorithm;
}

/**
 * A training run (docs/model.md): the latest 20 % of the examples in time are held out for the
 * metrics; of the rest, the latest 10 % stop the boosting and fit the calibration, and the model
 * learns from the others. Every split is by time, so each stage is judged on examples later than
 * those it learnt from. With a `baseline`, that algorithm is fitted on the very same parts too,
 * and the one `servedAlgorithm` picks is the model.
 */
export function trainScoringModel(request: ModelTrainingRequest, onProgress?: CandidateProgress): ModelTrainingResult {
  const { matrix, labels, eventTimes, features } = request;
  if (features.map((column) => column.name).join('\n') !== matrix.featureNames.join('\n')) throw new RangeError("the features must be the matrix's columns, in order");
  if (labels.length !== matrix.rowCount || eventTimes.length !== matrix.rowCount) throw new RangeError(`${matrix.rowCount} rows, ${labels.length} labels and ${eventTimes.length} event times`);
  const { trainingRows: learningRows, holdoutRows } = timeOrderedSplit(eventTimes, request.holdoutFraction ?? 0.2);
  const learningTimes = Float64Array.from(learningRows, (row) => eventTimes[row]);
  const { trainingRows: fitPositions, holdoutRows: validationPositions } = timeOrderedSplit(learningTimes, request.validationFraction ?? 0.1);
  const rowsOf = (positions: Uint32Array): LabelledRows => {
    const rows = Uint32Array.from(positions, (position) => learningRows[position]);
    return { matrix: selectRows(matrix, rows), labels: Uint8Array.from(rows, (row) => labels[row]) };
  };
  const training = rowsOf(fitPositions);
  const validation = rowsOf(validationPositions);
  const holdout: LabelledRows = { matrix: selectRows(matrix, holdoutRows), labels: Uint8Array.from(holdoutRows, (row) => labels[row]) };
  for (const [name, rows] of [['training', training], ['validation', validation], ['held-out', holdout]] as const) {
    if (!rows.labels.includes(1) || !rows.labels.includes(0)) {
      const holdout = request.holdoutFraction ?? 0.2;
      const validation = (1 - holdout) * (request.validationFraction ?? 0.1);
      const percent = (share: number) => `${Math.round(share * 100)} %`;
      const part = { training: `the earliest ${percent(1 - holdout - validation)}`, validation: `the ${percent(validation)} after them`, 'held-out': `the latest ${percent(holdout)}` }[name];
      throw new RangeError(`the ${name} examples (${part} of the period, by time) need positives and negatives; train over a longer period, or once more fraud is labelled`);
    }
  }

  const algorithms = request.baseline === undefined || request.baseline === request.algorithm ? [request.algorithm] : [request.algorithm, request.baseline];
  const fitted = algorithms.map((algorithm) => {
    const model = fitModel(algorithm, request, training, validation, onProgress);
    return { algorithm, model, metrics: holdoutMetrics(model, holdout, request.thresholds ?? { review: 50, prevent: 80 }) };
  });
  const candidates = fitted.map(({ algorithm, metrics }) => ({ algorithm, metrics }));
  const served = fitted.find((candidate) => candidate.algorithm === servedAlgorithm(candidates)) ?? fitted[0];
  return {
    model: served.model,
    algorithm: served.algorithm,
    metrics: served.metrics,
    candidates,
    trainingExamples: training.matrix.rowCount,
    validationExamples: validation.matrix.rowCount,
  };
}

/** One algorithm's model: its predictor learnt on `training`, calibrated and put on a score scale on `validation`. */
function fitModel(algorithm: Algorithm, request: ModelTrainingRequest, training: LabelledRows, validation: LabelledRows, onProgress?: CandidateProgress): ScoringModel {
  let predictor: MarginPredictor;
  switch (algorithm) {
    case 'gradient-boosted-trees': {
      const treeProgress: TrainingProgress | undefined = onProgress && ((done, total, validationLoss) => onProgress(done, total, validationLoss, algorithm));
      predictor = trainGradientBoostedTrees(training, request.boosting, validation, treeProgress).model;
      break;
    }
    case 'logistic-regression':
      predictor = trainLogisticRegression(training, request.logisticRegression);
      onProgress?.(1, 1, null, algorithm);
      break;
  }
  const validationMargins = predictor.predictMargins(validation.matrix);
  const calibration = fitCalibration(calibrationKind(request.calibration ?? 'auto', validation.labels), validationMargins, validation.labels);
  // The scale is chosen on the validation part and judged, with the rest, on the held-out part.
  const rawValidationScores = validationMargins.map((margin) => riskScore(calibratedProbability(calibration, margin)));
  return new ScoringModel(request.features, predictor, calibration, suggestScoreScale(rawValidationScores, validation.labels, request.thresholdTargets));
}

/** Examples of each class the validation part needs before `auto` calibrates isotonically. */
export const ISOTONIC_MIN_CLASS_EXAMPLES = 1_000;

function calibrationKind(requested: CalibrationKind | 'auto', labels: Uint8Array): CalibrationKind {
  if (requested !== 'auto') return requested;
  const positives = labels.reduce((sum, label) => sum + label, 0);
  return Math.min(positives, labels.length - positives) >= ISOTONIC_MIN_CLASS_EXAMPLES ? 'isotonic' : 'platt';
}

export function holdoutMetrics(model: ScoringModel, holdout: LabelledRows, thresholds: { review: number; prevent: number }): HoldoutMetrics {
  const margins = model.predictor.predictMargins(holdout.matrix);
  const probabilities = margins.map((margin) => calibratedProbability(model.calibration, margin));
  const scores = probabilities.map((probability) => model.scoreOfProbability(probability));
  return {
    examples: holdout.matrix.rowCount,
    positives: holdout.labels.reduce((sum, label) => sum + label, 0),
    auc: rocAuc(margins, holdout.labels),
    averagePrecision: averagePrecision(margins, holdout.labels),
    logLoss: logLoss(probabilities, holdout.labels),
    precisionAtPrevent: metricsAtThreshold(scores, holdout.labels, thresholds.prevent).precision,
    recallAtReview: metricsAtThreshold(scores, holdout.labels, thresholds.review).recall,
  };
}
