import type { MessageEnvelope, TrainModelRequest } from '@ringfence/contracts';
import { type FeatureColumn, buildFeatureMatrix, modelFromJson, trainScoringModel } from '@ringfence/learning';
import type { Logger } from '@ringfence/platform';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import type { ModelRecord } from '@ringfence/scoring-engine';
import { TypeOrmModelRepository } from '@ringfence/scoring-store';
import { MIN_EXAMPLES_PER_CLASS, ModelTrainer, type TrainingRunner } from './model-trainer';
import type { TrainingExampleReader, TrainingExamples } from './training-examples';

const FEATURES: FeatureColumn[] = [
  { name: 'emailDisposable', type: 'bool' },
  { name: 'amountMajorUnits', type: 'double' },
];
const T0 = 1_766_000_000_000;

/** `rows` decisions a minute apart; every `fraudEvery`-th is fraud and has a disposable e-mail. */
function examples(rows: number, fraudEvery: number): TrainingExamples {
  const records = Array.from({ length: rows }, (_, row) => ({ emailDisposable: row % fraudEvery === 0, amountMajorUnits: (row * 37) % 500 }));
  const labels = Uint8Array.from(records, (record) => (record.emailDisposable ? 1 : 0));
  return {
    features: FEATURES,
    matrix: buildFeatureMatrix(FEATURES, records),
    labels,
    eventTimes: Float64Array.from(records, (_, row) => T0 + row * 60_000),
    positives: labels.reduce((sum, label) => sum + label, 0),
  };
}

const inProcess: TrainingRunner = async (request, onProgress) => trainScoringModel({ ...request, boosting: { trees: 10 } }, onProgress);
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;

let sequence = 0;
function trainRequest(checkpoint: TrainModelRequest['checkpoint'] = 'customer'): MessageEnvelope<TrainModelRequest> {
  sequence += 1;
  return {
    eventId: `evt-${sequence}`,
    accountId: `acc_trainer_${sequence}`,
    environment: 'test',
    subjectId: 'models',
    acceptedAt: T0,
    traceId: `trace-${sequence}`,
    account: { industry: null, settings: {} },
    payload: { checkpoint, author: 'key_a' },
  };
}

describe(ModelTrainer.name, () => {
  const database = useEmbeddedTestDatabase();

  function trainer(read: () => Promise<TrainingExamples>, runner: TrainingRunner = inProcess) {
    const models = new TypeOrmModelRepository(database.dataSource());
    const reader = { read: async (_message: unknown, _checkpoint: unknown, _from: unknown, _to: unknown, onPage: (done: number) => Promise<void>) => {
      const found = await read();
      await onPage(found.labels.length);
      return found;
    } } as unknown as TrainingExampleReader;
    return { models, trainer: new ModelTrainer(models, runner, silent, reader) };
  }

  const tenantOf = (message: MessageEnvelope<unknown>) => ({ accountId: message.accountId, environment: message.environment });

  it('answers at once with a training model, then stores it ready with its held-out metrics and a model that loads', async () => {
    const { models, trainer: subject } = trainer(async () => examples(2_000, 10));
    const message = trainRequest();

    const accepted = await subject.start(message);
    expect(accepted).toEqual({ modelId: expect.stringMatching(/^mdl_/), status: 'training' });
    await subject.idle();

    const stored = (await models.find(tenantOf(message), accepted.modelId)) as ModelRecord;
    expect(stored).toMatchObject({ status: 'ready', examples: 2_000, positives: 200, progress: null, error: null, active: false });
    expect(stored.metrics?.auc).toBeGreaterThan(0.99);
    const model = modelFromJson((await models.artifact(tenantOf(message), accepted.modelId)) as string);
    expect(model.scoreOf(model.vectorOf({ emailDisposable: true, amountMajorUnits: 10 }))).toBeGreaterThan(model.scoreOf(model.vectorOf({ emailDisposable: false, amountMajorUnits: 10 })));
  });

  it('fails a training with too few positives, saying how many there were', async () => {
    const { models, trainer: subject } = trainer(async () => examples(500, 50));
    const message = trainRequest();

    const { modelId } = await subject.start(message);
    await subject.idle();

    expect(await models.find(tenantOf(message), modelId)).toMatchObject({
      status: 'failed',
      error: `needs at least ${MIN_EXAMPLES_PER_CLASS} positives and ${MIN_EXAMPLES_PER_CLASS} negatives; the period has 10 positives and 490 negatives`,
    });
  });

  it('fails a training whose run fails, with the reason, and goes on with the next one', async () => {
    let calls = 0;
    const flaky: TrainingRunner = async (request, onProgress) => {
      calls += 1;
      if (calls === 1) throw new Error('the worker ran out of memory');
      return inProcess(request, onProgress);
    };
    const { models, trainer: subject } = trainer(async () => examples(2_000, 10), flaky);
    const first = trainRequest();
    const second = trainRequest();

    const failed = await subject.start(first);
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
});
