import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildService, freePort, spawnService } from '../support/child-service';
import { TestHttpClient } from '../support/https-client';

type Metrics = { auc: number | null; averagePrecision: number | null };
type Model = {
  modelId: string;
  status: string;
  examples: number;
  positives: number;
  positivesByReason: Record<string, number> | null;
  algorithm: string | null;
  candidates: { algorithm: string; metrics: Metrics }[];
  active: boolean;
  error?: string;
  metrics: Metrics | null;
};
type Contribution = { feature: string; value: unknown; contribution: number };
type Explanation = { modelVersion: string; model: { id: string; kind: string; algorithm: string }; baseScore: number; raised: Contribution[]; lowered: Contribution[] };
type Decision = { features: { modelVersion: string; modelScore: number }; explanation: Explanation };

const CUSTOMERS = 240;
/** Every fourth customer is a fraudster: 60 positives, spread over the period so each part of the time split holds some. */
const isFraudster = (index: number) => index % 4 === 0;

/**
 * ADR-0012 end to end, against the built embedded process (training runs on its worker
 * thread from dist/): customers decided at the customer checkpoint, the fraudsters among them
 * (who sign up with a disposable e-mail domain) labelled, a model trained on those decisions,
 * activated, and the next checkpoint scored and explained by it.
 */
describe('a learned model, trained and activated through the API (embedded process)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ringfence-models-'));
  let service: ChildService | undefined;
  let client: TestHttpClient;
  let key: string;

  beforeAll(async () => {
    const port = await freePort();
    service = spawnService('standalone', { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await service.waitForOutput(/"msg":"listening"/, 60_000);
    client = new TestHttpClient(`https://localhost:${port}`, readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'));
    key = readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim();
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const send = <T>(method: string, path: string, body?: unknown) => client.send<T>({ method, path, body, apiKey: key });
  const signUp = (customerId: string, fraudster: boolean, timestamp: number) =>
    send<{ data: { scoreId: string } }>('POST', '/v2/customer', {
      timestamp,
      customer: { customerId, name: 'Sam Carter', email: `${customerId}@${fraudster ? 'mailinator.com' : 'example.com'}`, registrationTime: timestamp - 60_000 },
      device: { deviceId: `dev-${customerId}` },
    });

  it('learns who the fraudsters are, is activated, and scores and explains the next checkpoint', async () => {
    const start = Date.now() - CUSTOMERS * 60_000;
    for (let index = 0; index < CUSTOMERS; index += 1) {
      const customerId = `cus-model-${index}`;
      expect((await signUp(customerId, isFraudster(index), start + index * 60_000)).status).toBe(200);
      if (isFraudster(index)) expect((await send('POST', `/v2/customer/${customerId}/labels`, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
    }

    const started = await send<{ modelId: string; status: string }>('POST', '/v2/models/train', { checkpoint: 'customer' });
    expect(started.status).toBe(202);
    const { modelId } = started.body;

    // Training runs on a worker thread off the request path (asynchronous by design): its end is polled for.
    const deadline = Date.now() + 60_000;
    let model: Model;
    for (;;) {
      model = (await send<Model>('GET', `/v2/models/${modelId}`)).body;
      if (model.status !== 'training' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(model).toMatchObject({ status: 'ready', examples: CUSTOMERS, positives: CUSTOMERS / 4, active: false });
    expect(model.metrics?.auc).toBeGreaterThan(0.95);
    // Customer checkpoint: the example is the customer, positive for its FRAUDSTER label; both fits ran on the worker thread.
    expect(model.positivesByReason).toEqual({ disputedPayment: 0, analystMarkedFraud: 0, customerLabelledFraudster: 0, customerFraud: CUSTOMERS / 4, supplierFraudulent: 0, refundAbuse: 0 });
    expect(model.candidates.map((candidate) => candidate.algorithm)).toEqual(['gradient-boosted-trees', 'logistic-regression']);
    expect(model.candidates.map((candidate) => candidate.algorithm)).toContain(model.algorithm);

    const activated = await send<Model>('POST', `/v2/models/${modelId}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body.active).toBe(true);

    // The very next checkpoint is scored by the model.
    const fraudLike = await signUp('cus-model-next-fraud', true, Date.now());
    const genuineLike = await signUp('cus-model-next-genuine', false, Date.now());
    const decision = async (scoreId: string) => (await send<{ data: Decision }>('GET', `/v2/decisions/${scoreId}`)).body.data;
    const fraud = await decision(fraudLike.body.data.scoreId);
    const genuine = await decision(genuineLike.body.data.scoreId);
    expect(fraud.features.modelVersion).toBe(modelId);
    expect(fraud.explanation.modelVersion).toBe(modelId);
    expect(fraud.explanation.model).toEqual({ id: modelId, kind: 'account', algorithm: model.algorithm });
    expect(fraud.features.modelScore).toBeGreaterThan(genuine.features.modelScore);
    expect(fraud.explanation.raised.map((item) => item.feature)).toContain('emailDisposable');
    expect(fraud.explanation.raised.find((item) => item.feature === 'emailDisposable')).toMatchObject({ value: true, contribution: expect.any(Number) });
    // The checkpoint computes them: its answer (`?explain=true`) carries them, as its decision event does.
    const explained = await send<{ data: { explanation: Explanation } }>('POST', '/v2/customer?explain=true', {
      timestamp: Date.now(),
      customer: { customerId: 'cus-model-next-fraud', name: 'Sam Carter', email: 'cus-model-next-fraud@mailinator.com', registrationTime: Date.now() - 60_000 },
      device: { deviceId: 'dev-cus-model-next-fraud' },
    });
    expect(explained.body.data.explanation.modelVersion).toBe(modelId);
    expect(explained.body.data.explanation.model).toEqual({ id: modelId, kind: 'account', algorithm: model.algorithm });
    expect(explained.body.data.explanation.raised.map((item) => item.feature)).toContain('emailDisposable');
  });
});
