import { fitCalibration } from '../calibration';
import { numericFeatures } from '../feature-matrix';
import { type BoostingOptions, trainGradientBoostedTrees } from '../gradient-boosting.trainer';
import { trainLogisticRegression } from '../logistic-regression';
import { ScoringModel } from '../scoring-model';
import { type SyntheticDatasetOptions, syntheticDataset } from './synthetic-dataset';

/** A small trained tree model with isotonic calibration, and the data it was trained on. */
export function trainedTreeModel(data: Partial<SyntheticDatasetOptions> = {}, boosting: Partial<BoostingOptions> = {}) {
  const dataset = syntheticDataset({ rows: 3_000, ...data });
  const { model: predictor } = trainGradientBoostedTrees(dataset, { trees: 30, seed: 5, ...boosting });
  const model = new ScoringModel(numericFeatures(dataset.schema), predictor, fitCalibration('isotonic', predictor.predictMargins(dataset.matrix), dataset.labels));
  return { model, dataset };
}

/** A small trained logistic regression with Platt scaling, and the data it was trained on. */
export function trainedRegressionModel(data: Partial<SyntheticDatasetOptions> = {}) {
  const dataset = syntheticDataset({ rows: 3_000, ...data });
  const predictor = trainLogisticRegression(dataset);
  const model = new ScoringModel(numericFeatures(dataset.schema), predictor, fitCalibration('platt', predictor.predictMargins(dataset.matrix), dataset.labels));
  return { model, dataset };
}
