import { join } from 'node:path';
import { matrixRow, numericFeatures } from './feature-matrix';
import type { ModelTrainingRequest } from './model-training';
import { syntheticDataset } from './test-support/synthetic-dataset';
import { trainInWorker } from './training-worker.client';

/**
 * A worker thread runs JavaScript, so this runs the built worker (`npm run test:integration`
 * builds first); the training itself is unit-tested on the sources (model-training.spec.ts).
 */
const BUILT_WORKER = join(__dirname, '..', '..', '..', 'dist', 'libs', 'learning', 'src', 'model-training.worker.js');

function request(overrides: Partial<ModelTrainingRequest> = {}): ModelTrainingRequest {
  const dataset = syntheticDataset({ rows: 20_000, signal: 'interaction', seed: 41 });
  return { algorithm: 'gradient-boosted-trees', features: numericFeatures(dataset.schema), matrix: dataset.matrix, labels: dataset.labels, eventTimes: dataset.eventTimes, boosting: { trees: 60, seed: 2 }, ...overrides };
}

describe(trainInWorker.name, () => {
  it('trains on a worker thread while this thread keeps running, streaming progress, and returns the loadable model', async () => {
    const progress: number[] = [];
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 5);
    const input = request();
    const result = await trainInWorker(input, { workerScript: BUILT_WORKER, onProgress: (done) => progress.push(done) }).finally(() => clearInterval(ticker));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual(Array.from({ length: progress.length }, (_, index) => index + 1));
    expect(ticks).toBeGreaterThan(0);
    expect(result.metrics.auc).toBeGreaterThan(0.85);
    const vector = matrixRow(input.matrix, 0);
    expect(result.model.explain(vector).margin).toBeCloseTo(result.model.predictor.predictMargin(vector), 9);
  });

  it('fits the baseline on the worker thread too, and returns both candidates with the one that serves', async () => {
    const progress: string[] = [];
    const result = await trainInWorker(request({ baseline: 'logistic-regression' }), { workerScript: BUILT_WORKER, onProgress: (_done, _total, _loss, algorithm) => progress.push(algorithm) });
    expect(result.candidates.map((candidate) => candidate.algorithm)).toEqual(['gradient-boosted-trees', 'logistic-regression']);
    // An interaction the regression cannot express: the trees serve.
    expect(result.algorithm).toBe('gradient-boosted-trees');
    expect(result.document.predictor.kind).toBe('gradient-boosted-trees');
    expect(result.metrics).toEqual(result.candidates[0].metrics);
    expect(progress.at(-1)).toBe('logistic-regression');
  });

  it('moves the input to the worker when asked, leaving the caller without it', async () => {
    const input = request({ boosting: { trees: 5, seed: 2 } });
    await trainInWorker(input, { workerScript: BUILT_WORKER, transferInput: true });
    expect(input.matrix.values.length).toBe(0);
  });

  it('rejects with the reason when training fails, and when aborted', async () => {
    const input = request();
    await expect(trainInWorker({ ...input, labels: new Uint8Array(input.labels.length) }, { workerScript: BUILT_WORKER })).rejects.toThrow('training failed: the training examples (the earliest 72 % of the period, by time) need positives and negatives');
    const controller = new AbortController();
    const running = trainInWorker(request({ boosting: { trees: 1_000, seed: 2 } }), { workerScript: BUILT_WORKER, signal: controller.signal, onProgress: () => controller.abort() });
    await expect(running).rejects.toThrow('training aborted');
  });
});
