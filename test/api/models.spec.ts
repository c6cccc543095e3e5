import { IDENTITY_SCALE, LogisticRegression, ScoringModel, modelDocument, numericFeatures } from '@ringfence/learning';
import { MODEL_REPOSITORY, type ModelRepository, featureDeclarations, scoringCheckpointOf } from '@ringfence/scoring-engine';
import { type EmbeddedService, TEST_ADMIN_KEY, eventually, startEmbeddedService } from '../support/embedded-service';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';

// Training runs on a worker thread from the built output (test/e2e/models.int-spec.ts trains
// there); here it runs in process, with few trees, so that the labels, the summary and the choice
// between the trees and the baseline are tested through the API without a build. Everything
// around the fits (reading the decisions, labelling them, storing, activating, scoring) is real.
jest.mock('@ringfence/learning', () => {
  const learning = jest.requireActual<typeof import('@ringfence/learning')>('@ringfence/learning');
  return {
    ...learning,
    trainInWorker: async (request: Parameters<typeof learning.trainScoringModel>[0], options: { onProgress?: Parameters<typeof learning.trainScoringModel>[1] } = {}) =>
      learning.trainScoringModel({ ...request, boosting: { trees: 10 } }, options.onProgress),
  };
});

type Account = { accountId: string; keys: { secretTest: string; secretLive: string; publishableTest: string } };
type Metrics = { auc: number | null; averagePrecision: number | null; precisionAtPrevent: number | null; recallAtReview: number | null; scale?: { review: number; prevent: number } };
type Model = {
  modelId: string;
  shipped?: boolean;
  version?: string;
  checkpoint: string;
  status: string;
  createdAt: string;
  createdBy: string;
  from: number | null;
  to: number;
  examples: number;
  positives: number;
  positivesByReason: Record<string, number> | null;
  algorithm: string | null;
  metrics: Metrics | null;
  candidates: { algorithm: string; metrics: Metrics }[];
  active: boolean;
  error?: string;
};
type ModelIdentity = { id: string; kind: string; algorithm: string };
type Contribution = { feature: string; value: unknown; contribution: number };
type Explanation = { modelVersion: string; model: ModelIdentity; modelScore: number; baseScore: number; raised: Contribution[]; lowered: Contribution[] };
type Answer = { data: { scoreId: string; explanation: Explanation } };
type Decision = { data: { features: { modelVersion: string; modelScore: number }; explanation: Explanation } };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/**
 * The models API through the embedded app (docs/api.md, "Models"): the routes, their validation,
 * a training that cannot start, a training on payments and disputes (its labels, its summary,
 * its baseline), and which model each decision names.
 */
describe('models API (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  const newAccount = async (): Promise<Account> => {
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('models') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body;
  };

  beforeAll(async () => {
    service = await startEmbeddedService();
    account = await newAccount();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = <T>(method: string, path: string, body?: unknown, apiKey = account.keys.secretTest) => service.client.send<T>({ method, path, body, apiKey });

  it('records a training at once (202), and fails it with the reason when the period has too few labelled decisions', async () => {
    expect((await send('POST', '/v2/customer', customerRequest())).status).toBe(200);

    const started = await send<{ modelId: string; status: string }>('POST', '/v2/models/train', { checkpoint: 'customer' });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ modelId: expect.stringMatching(/^mdl_/), status: 'training' });

    // Training runs off the request path (asynchronous by design): its end is polled for.
    const failed = await eventually(async () => {
      const model = (await send<Model>('GET', `/v2/models/${started.body.modelId}`)).body;
      return model.status === 'training' ? null : model;
    }, 20_000);
    expect(failed).toMatchObject({ modelId: started.body.modelId, checkpoint: 'customer', status: 'failed', active: false, from: null });
    expect(failed.error).toMatch(/needs at least 20 positives and 20 negatives; the period has 0 positives and \d+ negatives/);
    expect(failed.createdBy).toMatch(/^key_/);

    const activated = await send<{ status: number; message: string }>('POST', `/v2/models/${started.body.modelId}/activate`);
    expect(activated.status).toBe(409);
    expect(activated.body.message).toMatch(/is failed: only a ready model can be activated/);

    const listed = await send<{ status: number; data: { models: Model[] } }>('GET', '/v2/models');
    expect(listed.status).toBe(200);
    expect(listed.body.data.models.map((model) => model.modelId)).toContain(started.body.modelId);
    const payoutModels = await send<{ data: { models: Model[] } }>('GET', '/v2/models?checkpoint=payout');
    expect(payoutModels.body.data.models.map((model) => model.modelId)).not.toContain(started.body.modelId);
  });

  it('answers 404 for an unknown model and keeps data sets apart', async () => {
    const started = await send<{ modelId: string }>('POST', '/v2/models/train', { checkpoint: 'payout' });
    expect((await send('GET', `/v2/models/${started.body.modelId}`, undefined, account.keys.secretLive)).status).toBe(404);
    expect((await send('GET', '/v2/models/mdl_unknown')).status).toBe(404);
    expect((await send('POST', '/v2/models/mdl_unknown/activate')).status).toBe(404);
  });

  it('refuses a bad request in the envelope: an unknown checkpoint, a period that ends before it starts, a malformed id, a publishable key', async () => {
    const unknown = await send<{ message: string }>('POST', '/v2/models/train', { checkpoint: 'checkout' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/checkpoint: must be one of customer/);
    const backwards = await send<{ message: string }>('POST', '/v2/models/train', { checkpoint: 'customer', from: 2_000, to: 1_000 });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/to: must be greater than from/);
    expect((await send('GET', '/v2/models/not-a-model-id')).status).toBe(400);
    expect((await send('GET', '/v2/models', undefined, account.keys.publishableTest)).status).toBe(403);
  });

  describe('a PSP model learns from the payments that were disputed', () => {
    const PAYMENTS = 150;
    /** Every fifth payment is disputed: 30 disputes, spread over the period so each part of the time split holds some. */
    const isDisputed = (index: number) => index % 5 === 0;
    /** The merchant won the dispute of this one: forgiven, so a negative. */
    const FORGIVEN = 5;

    it('counts as positives exactly the disputed payments not forgiven (not every payment of their customers) and a payment by a customer already labelled FRAUDSTER; reports them by reason with both candidates; the activated model names itself on the next decision', async () => {
      const own = await newAccount();
      const post = <T>(path: string, body?: unknown) => service.client.send<T>({ method: 'POST', path, body, apiKey: own.keys.secretTest });
      const get = <T>(path: string) => service.client.send<T>({ method: 'GET', path, apiKey: own.keys.secretTest });
      const start = Date.now() - (PAYMENTS + 10) * 60_000;
      const customerOf = (index: number) => `cus-card-${Math.floor(index / 3)}`;
      const pay = (customerId: string, transactionId: string, timestamp: number, amount: number) =>
        post<Answer>('/psp/transaction?checkpoint=pspBeforeAuth&explain=true', pspTransactionRequest({ timestamp, transaction: { transactionId, amount }, customer: { customerId } }));

      // Three payments per cardholder; the disputed ones (larger, so the models have something to learn) are one of them.
      for (let index = 0; index < PAYMENTS; index += 1) {
        expect((await pay(customerOf(index), `tx-card-${index}`, start + index * 60_000, isDisputed(index) ? 90_000 + index : 1_500 + index)).status).toBe(200);
      }
      for (let index = 0; index < PAYMENTS; index += 1) {
        if (!isDisputed(index)) continue;
        const dispute = { disputeId: `dsp-card-${index}`, transactionId: `tx-card-${index}`, stage: 'CHARGEBACK', ...(index === FORGIVEN ? { outcome: 'WON' } : {}) };
        expect((await post('/psp/dispute', { timestamp: Date.now(), dispute })).status).toBe(200);
      }
      // A customer labelled FRAUDSTER now: its payments before the label stay negatives, the one after it is a positive.
      const fraudster = customerOf(PAYMENTS - 1);
      expect((await post(`/v2/customer/${fraudster}/labels`, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
      const beforeActivation = await pay(fraudster, 'tx-after-label', Date.now(), 2_000);
      expect(beforeActivation.status).toBe(200);
      // No model of the account's own yet: the built-in model or the shipped default answered, and says so.
      expect(['built-in', 'shipped']).toContain(beforeActivation.body.data.explanation.model.kind);

      const started = await post<{ modelId: string }>('/v2/models/train', { checkpoint: 'pspBeforeAuth' });
      expect(started.status).toBe(202);
      // Training runs off the request path (asynchronous by design): its end is polled for.
      const model = await eventually(async () => {
        const read = (await get<Model>(`/v2/models/${started.body.modelId}`)).body;
        return read.status === 'training' ? null : read;
      }, 60_000);

      const disputed = Array.from({ length: PAYMENTS }, (_, index) => index).filter((index) => isDisputed(index) && index !== FORGIVEN).length;
      expect(model).toMatchObject({ status: 'ready', examples: PAYMENTS + 1, positives: disputed + 1 });
      expect(model.positivesByReason).toEqual({ disputedPayment: disputed, analystMarkedFraud: 0, customerLabelledFraudster: 1, customerFraud: 0, supplierFraudulent: 0, refundAbuse: 0 });
      expect(model.candidates.map((candidate) => candidate.algorithm)).toEqual(['gradient-boosted-trees', 'logistic-regression']);
      const served = model.candidates.find((candidate) => candidate.algorithm === model.algorithm);
      expect(served).toBeDefined();
      const [trees, regression] = model.candidates;
      // The rule: the trees serve unless the regression's held-out average precision is strictly higher.
      expect(model.algorithm).toBe((regression.metrics.averagePrecision ?? -1) > (trees.metrics.averagePrecision ?? -1) ? 'logistic-regression' : 'gradient-boosted-trees');
      expect(model.metrics).toEqual({ ...served?.metrics, scale: expect.any(Object) });
      const listed = (await get<{ data: { models: Model[] } }>('/v2/models')).body.data.models.find((each) => each.modelId === model.modelId);
      expect(listed).toEqual(model);

      expect((await post(`/v2/models/${model.modelId}/activate`)).status).toBe(200);
      // The very next checkpoint is the activated model's, and its answer and its decision say so.
      const next = await pay(customerOf(0), 'tx-next', Date.now(), 95_000);
      const named = { id: model.modelId, kind: 'account', algorithm: model.algorithm };
      expect(next.body.data.explanation).toMatchObject({ modelVersion: model.modelId, model: named });
      const decision = (await get<Decision>(`/v2/decisions/${next.body.data.scoreId}`)).body.data;
      expect(decision.features.modelVersion).toBe(model.modelId);
      expect(decision.explanation.model).toEqual(named);
    }, 120_000);
  });

  it('serves and explains an activated logistic regression at the checkpoint, naming it', async () => {
    const own = await newAccount();
    const post = <T>(path: string, body?: unknown) => service.client.send<T>({ method: 'POST', path, body, apiKey: own.keys.secretTest });
    // A regression that reads only the amount: fraud rises with it (19.99 is ordinary, 1,000.00 is not).
    const features = numericFeatures(featureDeclarations(scoringCheckpointOf('pspBeforeAuth')));
    const names = features.map((column) => column.name);
    const amount = names.indexOf('amountMajorUnits');
    expect(amount).toBeGreaterThanOrEqual(0);
    const coefficients = new Float64Array(names.length);
    coefficients[amount] = 1;
    const means = new Float64Array(names.length);
    means[amount] = 20;
    const scales = new Float64Array(names.length).fill(1);
    scales[amount] = 10;
    const regression = new ScoringModel(features, new LogisticRegression(names, means, scales, coefficients, -3), null, IDENTITY_SCALE);
    const models = service.app.get<ModelRepository>(MODEL_REPOSITORY, { strict: false });
    const tenant = { accountId: own.accountId, environment: 'test' };
    const modelId = `mdl_${newId('regression').replace(/-/g, '_')}`;
    const metrics = { auc: 0.9, averagePrecision: 0.5, precisionAtPrevent: 0.8, recallAtReview: 0.7 };
    await models.create(tenant, { modelId, checkpoint: 'pspBeforeAuth', createdBy: 'key_test', from: null, to: Date.now() });
    await models.complete(tenant, modelId, {
      examples: 1_000,
      positives: 50,
      positivesByReason: { disputedPayment: 50, analystMarkedFraud: 0, customerLabelledFraudster: 0, customerFraud: 0, supplierFraudulent: 0, refundAbuse: 0 },
      labelMaturity: null,
      algorithm: 'logistic-regression',
      metrics,
      candidates: [{ algorithm: 'logistic-regression', metrics }],
      artifact: JSON.stringify(modelDocument(regression)),
    });

    expect((await post<Model>(`/v2/models/${modelId}/activate`)).body).toMatchObject({ algorithm: 'logistic-regression', active: true });

    const pay = (amountMinor: number) => post<Answer>('/psp/transaction?checkpoint=pspBeforeAuth&explain=true', pspTransactionRequest({ transaction: { amount: amountMinor, currency: 'GBP' } }));
    const large = await pay(100_000);
    const ordinary = await pay(1_999);
    const named = { id: modelId, kind: 'account', algorithm: 'logistic-regression' };
    expect(large.body.data.explanation).toMatchObject({ modelVersion: modelId, model: named });
    expect(large.body.data.explanation.raised[0]).toMatchObject({ feature: 'amountMajorUnits', value: 1_000 });
    // In points of the score (docs/model.md, "Explanations"): the amount alone moved it, so its points are the score's rise over the base (within the whole-number score's rounding).
    const { modelScore, baseScore } = large.body.data.explanation;
    expect(Math.abs(large.body.data.explanation.raised[0].contribution - (modelScore - baseScore))).toBeLessThan(1);
    expect(ordinary.body.data.explanation.lowered[0]).toMatchObject({ feature: 'amountMajorUnits', value: 19.99 });
    const decisionOf = async (answer: { body: Answer }) => (await service.client.send<Decision>({ method: 'GET', path: `/v2/decisions/${answer.body.data.scoreId}`, apiKey: own.keys.secretTest })).body.data;
    const [largeDecision, ordinaryDecision] = [await decisionOf(large), await decisionOf(ordinary)];
    expect(largeDecision.features.modelScore).toBeGreaterThan(ordinaryDecision.features.modelScore);
    expect(largeDecision.explanation.model).toEqual(named);

    // Back to the shipped default: activating it deactivates the trained model, from the next request on.
    const get = <T>(path: string) => service.client.send<T>({ method: 'GET', path, apiKey: own.keys.secretTest });
    const shippedWhileTrained = (await get<{ data: { models: Model[] } }>('/v2/models?checkpoint=pspBeforeAuth')).body.data.models.find((model) => model.modelId === 'default-pspBeforeAuth');
    expect(shippedWhileTrained).toMatchObject({ shipped: true, active: false });
    const restored = await post<Model>('/v2/models/default-pspBeforeAuth/activate');
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ modelId: 'default-pspBeforeAuth', shipped: true, active: true });
    expect((await get<Model>(`/v2/models/${modelId}`)).body.active).toBe(false);
    expect((await pay(100_000)).body.data.explanation.model.kind).not.toBe('account');
  });

  it('lists the default model shipped for a checkpoint, with its metrics, active while no trained model of the checkpoint is', async () => {
    const own = await newAccount();
    const get = <T>(path: string) => service.client.send<T>({ method: 'GET', path, apiKey: own.keys.secretTest });

    const listed = await get<{ data: { models: Model[] } }>('/v2/models');
    const read = await get<Model>('/v2/models/default-pspBeforeAuth');

    const shipped = listed.body.data.models.filter((model) => model.shipped);
    expect(shipped.map((model) => model.modelId)).toContain('default-pspBeforeAuth');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      modelId: 'default-pspBeforeAuth',
      checkpoint: 'pspBeforeAuth',
      status: 'ready',
      shipped: true,
      active: true,
      version: expect.stringMatching(/^mdl_default_pspBeforeAuth_/),
      metrics: { auc: expect.any(Number), averagePrecision: expect.any(Number) },
    });
    expect(listed.body.data.models.find((model) => model.modelId === 'default-pspBeforeAuth')).toEqual(read.body);
    expect((await get('/v2/models/default-payout')).status).toBe(404);
  });
});
