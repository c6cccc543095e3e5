import { numericFeatures } from './feature-matrix';
import { type CandidateMetrics, type HoldoutMetrics, type ModelTrainingRequest, servedAlgorithm, trainScoringModel } from './model-training';
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

  it('with a baseline, fits both on the same split, judges both on the same held-out part, and serves the trees where they rank fraud better', () => {
    const progress: string[] = [];
    const result = trainScoringModel(trainingRequest({}, { baseline: 'logistic-regression' }), (_done, _total, _loss, algorithm) => progress.push(algorithm));
    const [trees, regression] = result.candidates;
    expect(result.candidates.map((candidate) => candidate.algorithm)).toEqual(['gradient-boosted-trees', 'logistic-regression']);
    expect(trees.metrics.examples).toBe(4_000);
    expect(regression.metrics).toMatchObject({ examples: 4_000, positives: trees.metrics.positives });
    expect(trees.metrics.averagePrecision).toBeGreaterThan(regression.metrics.averagePrecision);
    expect(result.algorithm).toBe('gradient-boosted-trees');
    expect(result.model.predictor.kind).toBe('gradient-boosted-trees');
    expect(result.metrics).toEqual(trees.metrics);
    // The same fits as trained alone: the baseline's metrics are the regression's own.
    expect(regression.metrics).toEqual(trainScoringModel(trainingRequest({}, { algorithm: 'logistic-regression' })).metrics);
    expect(progress.at(-1)).toBe('logistic-regression');
    expect(progress.filter((algorithm) => algorithm === 'gradient-boosted-trees').length).toBeGreaterThan(0);
  });

  it('serves the logistic regression where it ranks fraud better than the trees on the held-out part', () => {
    // A weak additive signal over few rows: the regression's home ground, where a few shallow trees overfit.
    const request = trainingRequest({ rows: 3_000, signal: 'additive', seed: 5 }, { baseline: 'logistic-regression', boosting: { trees: 3, maxDepth: 2, seed: 4 } });
    const result = trainScoringModel(request);
    const [trees, regression] = result.candidates;
    expect(regression.metrics.averagePrecision).toBeGreaterThan(trees.metrics.averagePrecision);
    expect(result.algorithm).toBe('logistic-regression');
    expect(result.model.predictor.kind).toBe('logistic-regression');
    expect(result.metrics).toEqual(regression.metrics);
  });

  it('refuses features that are not the matrix columns and a holdout without positives', () => {
    const request = trainingRequest({ rows: 1_000 });
    expect(() => trainScoringModel({ ...request, features: request.features.slice(1) })).toThrow("the matrix's columns");
    const labels = request.labels.slice();
    labels.fill(0, 800);
    expect(() => trainScoringModel({ ...request, labels })).toThrow('the held-out examples (the latest 20 % of the period, by time) need positives and negatives');
  });
});

describe(servedAlgorithm.name, () => {
  const candidate = (algorithm: CandidateMetrics['algorithm'], averagePrecision: number): CandidateMetrics => ({
    algorithm,
    metrics: { averagePrecision } as HoldoutMetrics,
  });

  it('serves the trees unless the baseline has a strictly higher held-out average precision; an incomputable one counts lowest', () => {
    expect(servedAlgorithm([candidate('gradient-boosted-trees', 0.5), candidate('logistic-regression', 0.6)])).toBe('logistic-regression');
    expect(servedAlgorithm([candidate('gradient-boosted-trees', 0.6), candidate('logistic-regression', 0.5)])).toBe('gradient-boosted-trees');
    expect(servedAlgorithm([candidate('gradient-boosted-trees', 0.5), candidate('logistic-regression', 0.5)])).toBe('gradient-boosted-trees');
    expect(servedAlgorithm([candidate('gradient-boosted-trees', Number.NaN), candidate('logistic-regression', 0.1)])).toBe('logistic-regression');
    expect(servedAlgorithm([candidate('gradient-boosted-trees', 0.1), candidate('logistic-regression', Number.NaN)])).toBe('gradient-boosted-trees');
  });
});
