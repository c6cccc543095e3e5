import type { Environment, MessageEnvelope, TrainModelRequest } from '@ringfence/contracts';
import { type FeatureColumn, type ModelTrainingRequest, buildFeatureMatrix, modelFromJson, trainScoringModel } from '@ringfence/learning';
import type { Logger } from '@ringfence/platform';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import type { ModelRecord } from '@ringfence/scoring-engine';
import { TypeOrmModelRepository, SCORING_STORE_SCHEMA } from '@ringfence/scoring-store';
import { MIN_EXAMPLES_PER_CLASS, ModelTrainer, type TrainingBounds, type TrainingRunner } from './model-trainer';
import type { TrainingExampleReader, TrainingExamples } from './training-examples';

const FEATURES: FeatureColumn[] = [
  { name: 'emailDisposable', type: 'bool' },
  { name: 'amountMajorUnits', type: 'double' },
];
const T0 = 1_766_000_000_000;

/** `rows` decisions a minute apart; every `fraudEvery`-th is fraud (a disputed payment) and has a disposable e-mail. */
function examples(rows: number, fraudEvery: number): TrainingExamples {
  const records = Array.from({ length: rows }, (_, row) => ({ emailDisposable: row % fraudEvery === 0, amountMajorUnits: (row * 37) % 500 }));
  const labels = Uint8Array.from(records, (record) => (record.emailDisposable ? 1 : 0));
  return {
    features: FEATURES,
    matrix: buildFeatureMatrix(FEATURES, records),
    labels,
    eventTimes: Float64Array.from(records, (_, row) => T0 + row * 60_000),
    positives: labels.reduce((sum, label) => sum + label, 0),
    positivesByReason: { disputedPayment: labels.reduce((sum, label) => sum + label, 0), analystMarkedFraud: 0, customerLabelledFraudster: 0, customerFraud: 0, supplierFraudulent: 0, refundAbuse: 0 },
    labelMaturity: null,
  };
}

const inProcess: TrainingRunner = async (request, onProgress) => trainScoringModel({ ...request, boosting: { trees: 10 } }, onProgress);
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;

const BOUNDS: TrainingBounds = { maxConcurrentTrainings: 1, trainingMaxSeconds: 900, trainingMaxExamples: 1_000_000 };

/** A runner that trains only once `finish` was called, and stops (rejects) when its signal aborts, as the worker does. */
function heldRunner(): { runner: TrainingRunner; finish: () => void } {
  let finish: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const runner: TrainingRunner = (request, onProgress, signal) =>
    new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('training aborted')), { once: true });
      void gate.then(() => resolve(inProcess(request, onProgress, signal)));
    });
  return { runner, finish };
}

let sequence = 0;
function trainRequest(checkpoint: TrainModelRequest['checkpoint'] = 'customer', account?: { accountId: string; environment: Environment }): MessageEnvelope<TrainModelRequest> {
  sequence += 1;
  return {
    eventId: `evt-${sequence}`,
    accountId: account?.accountId ?? `acc_trainer_${sequence}`,
    environment: account?.environment ?? 'test',
    subjectId: 'models',
    acceptedAt: T0,
    traceId: `trace-${sequence}`,
    account: { industry: null, settings: {} },
    payload: { checkpoint, author: 'key_a' },
  };
}

describe(ModelTrainer.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);

  function trainer(read: () => Promise<TrainingExamples>, runner: TrainingRunner = inProcess, bounds: TrainingBounds = BOUNDS) {
    const models = new TypeOrmModelRepository(database.dataSource());
    const reader = { read: async (_message: unknown, _checkpoint: unknown, _from: unknown, _to: unknown, onPage: (done: number) => Promise<void>) => {
      const found = await read();
      await onPage(found.labels.length);
      return found;
    } } as unknown as TrainingExampleReader;
    return { models, trainer: new ModelTrainer(models, runner, silent, reader, bounds) };
  }

  const tenantOf = (message: MessageEnvelope<unknown>) => ({ accountId: message.accountId, environment: message.environment });

  it('answers at once with a training model, then stores it ready with its positives by reason, both candidates\' held-out metrics and the served model, which loads', async () => {
    const requests: ModelTrainingRequest[] = [];
    const recording: TrainingRunner = (request, onProgress, signal) => {
      requests.push(request);
      return inProcess(request, onProgress, signal);
    };
    const { models, trainer: subject } = trainer(async () => examples(2_000, 10), recording);
    const message = trainRequest();

    const accepted = await subject.start(message);
    expect(accepted).toEqual({ modelId: expect.stringMatching(/^mdl_/), status: 'training' });
    await subject.idle();

    // Both fits are asked of the runner (the worker thread), on the same examples.
    expect(requests.map(({ algorithm, baseline }) => ({ algorithm, baseline }))).toEqual([{ algorithm: 'gradient-boosted-trees', baseline: 'logistic-regression' }]);
    const stored = (await models.find(tenantOf(message), accepted.modelId)) as ModelRecord;
    expect(stored).toMatchObject({
      status: 'ready',
      examples: 2_000,
      positives: 200,
      positivesByReason: { disputedPayment: 200, analystMarkedFraud: 0, customerLabelledFraudster: 0, customerFraud: 0, supplierFraudulent: 0, refundAbuse: 0 },
      progress: null,
      error: null,
      active: false,
    });
    expect(stored.candidates.map((candidate) => candidate.algorithm)).toEqual(['gradient-boosted-trees', 'logistic-regression']);
    const served = stored.candidates.find((candidate) => candidate.algorithm === stored.algorithm);
    expect(stored.metrics).toEqual({ ...served?.metrics, scale: expect.objectContaining({ review: expect.any(Number), prevent: expect.any(Number) }) });
    expect(stored.metrics?.auc).toBeGreaterThan(0.99);
    const model = modelFromJson((await models.artifact(tenantOf(message), accepted.modelId)) as string);
    expect(model.predictor.kind).toBe(stored.algorithm);
    expect(model.scoreOf(model.vectorOf({ emailDisposable: true, amountMajorUnits: 10 }))).toBeGreaterThan(model.scoreOf(model.vectorOf({ emailDisposable: false, amountMajorUnits: 10 })));
  });

  it('fails a training with too few positives, saying how many there were', async () => {
    const { models, trainer: subject } = trainer(async () => examples(500, 50));
    const message = trainRequest();

    const { modelId } = await subject.start(message);
    await subject.idle();

    expect(await models.find(tenantOf(message), modelId)).toMatchObject({
      status: 'failed',
      error: `needs at least ${MIN_EXAMPLES_PER_CLASS} positives and ${MIN_EXAMPLES_PER_CLASS} negatives; the period has 10 positives (disputedPayment 10) and 490 negatives`,
    });
  });

  it('fails a training whose run fails, with the reason, and trains the next one', async () => {
    let calls = 0;
    const flaky: TrainingRunner = async (request, onProgress, signal) => {
      calls += 1;
      if (calls === 1) throw new Error('the worker ran out of memory');
      return inProcess(request, onProgress, signal);
    };
    const { models, trainer: subject } = trainer(async () => examples(2_000, 10), flaky);
    const first = trainRequest();
    const second = trainRequest();

    const failed = await subject.start(first);
    await subject.idle();
    const ready = await subject.start(second);
    await subject.idle();

    expect(await models.find(tenantOf(first), failed.modelId)).toMatchObject({ status: 'failed', error: 'training failed: the worker ran out of memory' });
    expect(await models.find(tenantOf(second), ready.modelId)).toMatchObject({ status: 'ready' });
  });

  it('marks the trainings a restart interrupted as failed when it starts', async () => {
    const { models, trainer: subject } = trainer(async () => examples(2_000, 10));
    const message = trainRequest();
    const interrupted = await models.create(tenantOf(message), { modelId: 'mdl_interrupted1', checkpoint: 'customer', createdBy: 'key_a', from: null, to: T0 });

    await subject.onModuleInit();

    expect(await models.find(tenantOf(message), interrupted.modelId)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^interrupted: the service restarted/) });
  });

  describe('bounds (ADR-0016: one training per account, a global cap, a time and an example bound)', () => {
    it('refuses a second training of the account (429, whichever data set asks) while its first runs, and accepts one once it ended', async () => {
      const held = heldRunner();
      const { models, trainer: subject } = trainer(async () => examples(2_000, 10), held.runner, { ...BOUNDS, maxConcurrentTrainings: 2 });
      const first = trainRequest('customer');
      const { modelId } = await subject.start(first);

      for (const environment of ['test', 'live'] as const) {
        const second = subject.start(trainRequest('payout', { accountId: first.accountId, environment }));
        await expect(second).rejects.toMatchObject({ status: 429, message: `the account is already training a model (${modelId}); one training runs per account: wait for it to end` });
      }
      // Nothing was recorded for the refused ones.
      expect((await models.list(tenantOf(first))).map((model) => model.modelId)).toEqual([modelId]);

      held.finish();
      await subject.idle();
      expect(await models.find(tenantOf(first), modelId)).toMatchObject({ status: 'ready' });
      await expect(subject.start(trainRequest('payout', { accountId: first.accountId, environment: 'live' }))).resolves.toMatchObject({ status: 'training' });
      held.finish();
      await subject.idle();
    });

    it('refuses a third account (429) while two others train under a cap of two, and lets it in once they ended', async () => {
      const held = heldRunner();
      const { trainer: subject } = trainer(async () => examples(2_000, 10), held.runner, { ...BOUNDS, maxConcurrentTrainings: 2 });
      await subject.start(trainRequest());
      await subject.start(trainRequest());

      const third = trainRequest();
      await expect(subject.start(third)).rejects.toMatchObject({ status: 429, message: 'the service is running its limit of 2 trainings at once; retry later' });

      held.finish();
      await subject.idle();
      await expect(subject.start(third)).resolves.toMatchObject({ status: 'training' });
      await subject.idle();
    });

    it('stops a training that runs past TRAINING_MAX_SECONDS: the worker is aborted, the model failed with the reason, the account may train again', async () => {
      const held = heldRunner();
      const { models, trainer: subject } = trainer(async () => examples(2_000, 10), held.runner, { ...BOUNDS, trainingMaxSeconds: 1 });
      const message = trainRequest();
      const started = Date.now();

      const { modelId } = await subject.start(message);
      await subject.idle(); // never finished by hand: only the bound ends it

      expect(Date.now() - started).toBeLessThan(3_000);
      expect(await models.find(tenantOf(message), modelId)).toMatchObject({
        status: 'failed',
        error: 'stopped: the training ran longer than TRAINING_MAX_SECONDS (1 s); train on a shorter period',
      });
      await expect(subject.start(trainRequest('payout', tenantOf(message)))).resolves.toMatchObject({ status: 'training' });
      held.finish();
      await subject.idle();
    });
  });
});
