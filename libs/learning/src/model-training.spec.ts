import { numericFeatures } from './feature-matrix';
import { type ModelTrainingRequest, trainScoringModel } from './model-training';
import { type SyntheticDatasetOptions, syntheticDataset } from './test-support/synthetic-dataset';

function trainingRequest(data: Partial<SyntheticDatasetOptions> = {}, overrides: Partial<ModelTrainingRequest> = {}): ModelTrainingRequest {
  const dataset = syntheticDataset({ rows: 20_000, signal: 'interaction', seed: 31, ...data });
  return {
    algorithm: 'gradient-boosted-trees',
    features: numericFeatures(dataset.schema),
    matrix: dataset.matrix,
    labels: dataset.labels,
    eventTimes: dataset.eventTimes,
    boosting: { trees: 120, seed: 4 },
    ...overrides,
  };
}

describe(trainScoringModel.name, () => {
  it('trains on the earlier 80 % and reports metrics on the latest 20 %, the trees well above the regression on an interaction', () => {
    const trees = trainScoringModel(trainingRequest());
    const regression = trainScoringModel(trainingRequest({}, { algorithm: 'logistic-regression' }));
    expect(trees.metrics.examples).toBe(4_000);
    expect(trees.trainingExamples + trees.validationExamples).toBe(16_000);
    expect(trees.metrics.auc).toBeGreaterThan(0.85);
    expect(trees.metrics.auc - regression.metrics.auc).toBeGreaterThan(0.1);
    expect(trees.metrics.averagePrecision).toBeGreaterThan(regression.metrics.averagePrecision);
    expect(trees.metrics.logLoss).toBeLessThan(regression.metrics.logLoss);
    // The scale's REVIEW, chosen on the validation part, catches most held-out fraud.
    expect(trees.model.scale.review).toBeLessThanOrEqual(trees.model.scale.prevent);
    expect(trees.metrics.recallAtReview).toBeGreaterThan(0.6);
  });

  it('judges on rows it never learnt from: shuffling the held-out labels leaves the model unchanged', () => {
    const request = trainingRequest({ rows: 5_000 }, { boosting: { trees: 20, seed: 4 } });
    const shuffled = request.labels.slice();
    shuffled.subarray(4_000).reverse();
    const original = trainScoringModel(request).model;
    const other = trainScoringModel({ ...request, labels: shuffled }).model;
    const vector = new Float32Array(request.features.length).fill(0.5);
    expect(other.predictor.predictMargin(vector)).toBe(original.predictor.predictMargin(vector));
  });

  it('reports progress after each tree and calibrates the probabilities', () => {
    const progress: number[] = [];
    const { model } = trainScoringModel(trainingRequest({ rows: 5_000 }, { boosting: { trees: 15, seed: 4 }, calibration: 'platt' }), (done) => progress.push(done));
    expect(progress).toEqual(Array.from({ length: 15 }, (_, index) => index + 1));
    expect(model.calibration?.kind).toBe('platt');
  });

  it('refuses features that are not the matrix columns and a holdout without positives', () => {
    const request = trainingRequest({ rows: 1_000 });
    expect(() => trainScoringModel({ ...request, features: request.features.slice(1) })).toThrow("the matrix's columns");
    const labels = request.labels.slice();
    labels.fill(0, 800);
    expect(() => trainScoringModel({ ...request, labels })).toThrow('the held-out examples (the latest 20 % of the period, by time) need positives and negatives');
  });
});
