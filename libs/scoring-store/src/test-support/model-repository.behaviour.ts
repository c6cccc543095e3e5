import type { ModelRecord, ModelRepository, RuleTenant, TrainedModelResult } from '@ringfence/scoring-engine';
import { randomUUID } from 'node:crypto';

const newTenant = (): RuleTenant => ({ accountId: `acc_${randomUUID()}`, environment: 'test' });
let sequence = 0;
const newModel = (overrides: Partial<Pick<ModelRecord, 'checkpoint' | 'from' | 'to'>> = {}) => ({
  modelId: `mdl_${(sequence += 1)}${randomUUID().slice(0, 8)}`,
  checkpoint: 'pspBeforeAuth' as const,
  createdBy: 'key_a',
  from: null,
  to: 1_766_400_000_000,
  ...overrides,
});
const result = (overrides: Partial<TrainedModelResult> = {}): TrainedModelResult => ({
  examples: 1_000,
  positives: 30,
  positivesByReason: { disputedPayment: 23, analystMarkedFraud: 2, customerLabelledFraudster: 5, customerFraud: 0, supplierFraudulent: 0, refundAbuse: 0 },
  labelMaturity: { horizonDays: 9.75, cutoff: 1_766_000_000_000, leftOut: 120 },
  algorithm: 'logistic-regression',
  metrics: { auc: 0.97, averagePrecision: 0.8, precisionAtPrevent: 0.9, recallAtReview: 0.85 },
  candidates: [
    { algorithm: 'gradient-boosted-trees', metrics: { auc: 0.95, averagePrecision: 0.7, precisionAtPrevent: 0.8, recallAtReview: 0.8 } },
    { algorithm: 'logistic-regression', metrics: { auc: 0.97, averagePrecision: 0.8, precisionAtPrevent: 0.9, recallAtReview: 0.85 } },
  ],
  artifact: '{"format":"test"}',
  ...overrides,
});

/** What any ModelRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeAModelRepository(repository: () => ModelRepository): void {
  it('records a training, its progress, then the trained model with its metrics; the artifact only once ready', async () => {
    const tenant = newTenant();
    const before = Date.now() - 1_000;
    const model = newModel({ from: 1_763_800_000_000 });

    const created = await repository().create(tenant, model);
    expect(created).toMatchObject({ ...model, status: 'training', examples: 0, positives: 0, positivesByReason: null, algorithm: null, metrics: null, candidates: [], active: false, progress: null, error: null });
    expect(created.createdAt).toBeGreaterThanOrEqual(before);
    expect(await repository().artifact(tenant, model.modelId)).toBeNull();

    await repository().progress(tenant, model.modelId, { stage: 'training', done: 12, total: 300 });
    expect((await repository().find(tenant, model.modelId))?.progress).toEqual({ stage: 'training', done: 12, total: 300 });

    await repository().complete(tenant, model.modelId, result());
    expect(await repository().find(tenant, model.modelId)).toMatchObject({
      status: 'ready',
      progress: null,
      examples: 1_000,
      positives: 30,
      positivesByReason: result().positivesByReason,
      labelMaturity: result().labelMaturity,
      algorithm: 'logistic-regression',
      metrics: result().metrics,
      candidates: result().candidates,
    });
    expect(await repository().artifact(tenant, model.modelId)).toBe('{"format":"test"}');
    // A finished model takes no more progress.
    await repository().progress(tenant, model.modelId, { stage: 'training', done: 1, total: 1 });
    expect((await repository().find(tenant, model.modelId))?.progress).toBeNull();
  });

  it('reads the positives of a model stored before analysts\' payment reviews counted with analystMarkedFraud 0', async () => {
    const tenant = newTenant();
    const model = newModel();
    await repository().create(tenant, model);
    const { analystMarkedFraud: _none, ...stored } = result().positivesByReason;

    await repository().complete(tenant, model.modelId, result({ positivesByReason: stored as TrainedModelResult['positivesByReason'] }));

    expect((await repository().find(tenant, model.modelId))?.positivesByReason).toEqual({ ...stored, analystMarkedFraud: 0 });
  });

  it('keeps one active model per checkpoint: activating another switches the first off; a model not ready stays inactive', async () => {
    const tenant = newTenant();
    const [first, second, other, training] = [newModel(), newModel(), newModel({ checkpoint: 'customer' }), newModel()];
    for (const model of [first, second, other, training]) await repository().create(tenant, model);
    for (const model of [first, second, other]) await repository().complete(tenant, model.modelId, result({ artifact: `{"id":"${model.modelId}"}` }));

    expect((await repository().activate(tenant, first.modelId))?.active).toBe(true);
    expect((await repository().activate(tenant, other.modelId))?.active).toBe(true);
    expect((await repository().activate(tenant, second.modelId))?.active).toBe(true);
    expect((await repository().find(tenant, first.modelId))?.active).toBe(false);
    expect((await repository().activate(tenant, training.modelId))?.active).toBe(false);
    expect(await repository().activate(tenant, 'mdl_unknown')).toBeNull();

    const active = (await repository().activeModels()).filter((model) => model.accountId === tenant.accountId);
    expect(active.map(({ modelId, checkpoint, artifact }) => ({ modelId, checkpoint, artifact }))).toEqual([
      { modelId: other.modelId, checkpoint: 'customer', artifact: `{"id":"${other.modelId}"}` },
      { modelId: second.modelId, checkpoint: 'pspBeforeAuth', artifact: `{"id":"${second.modelId}"}` },
    ]);
    expect(await repository().activeModel(tenant, 'pspBeforeAuth')).toMatchObject({ ...tenant, modelId: second.modelId, artifact: `{"id":"${second.modelId}"}` });
    expect(await repository().activeModel(tenant, 'payout')).toBeNull();

    // Back to the shipped default of one checkpoint: its trained model is no longer active, the other checkpoint's is.
    await repository().deactivate(tenant, 'pspBeforeAuth');
    expect(await repository().activeModel(tenant, 'pspBeforeAuth')).toBeNull();
    expect((await repository().find(tenant, second.modelId))?.active).toBe(false);
    expect(await repository().activeModel(tenant, 'customer')).toMatchObject({ modelId: other.modelId });
  });

  it('lists a data set\'s models newest first, apart from other tenants\'', async () => {
    const tenant = newTenant();
    const live = { ...tenant, environment: 'live' };
    const older = newModel();
    const newer = newModel();
    await repository().create(tenant, older);
    await repository().create(tenant, newer);
    await repository().create(live, newModel());

    const listed = await repository().list(tenant);
    expect(listed.map((model) => model.modelId).sort()).toEqual([older.modelId, newer.modelId].sort());
    expect(listed[0].createdAt).toBeGreaterThanOrEqual(listed[1].createdAt);
    expect(await repository().find(live, older.modelId)).toBeNull();
  });

  it('fails a training with its reason, and every unfinished one after a restart', async () => {
    const tenant = newTenant();
    const [failing, interrupted] = [newModel(), newModel()];
    await repository().create(tenant, failing);
    await repository().create(tenant, interrupted);

    await repository().fail(tenant, failing.modelId, 'too few positives');
    expect(await repository().failUnfinished('a restart ended it')).toBeGreaterThanOrEqual(1);

    expect(await repository().find(tenant, failing.modelId)).toMatchObject({ status: 'failed', error: 'too few positives' });
    expect(await repository().find(tenant, interrupted.modelId)).toMatchObject({ status: 'failed', error: 'a restart ended it' });
  });
}
