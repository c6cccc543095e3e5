import { type EmbeddedService, TEST_ADMIN_KEY, eventually, startEmbeddedService } from '../support/embedded-service';
import { customerRequest } from '../support/payload-factories';

type Account = { accountId: string; keys: { secretTest: string; secretLive: string; publishableTest: string } };
type Model = { modelId: string; checkpoint: string; status: string; createdAt: string; createdBy: string; from: number | null; to: number; examples: number; positives: number; active: boolean; error?: string };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/**
 * decisions §12's models API through the embedded app: the routes, their validation, and a
 * training that cannot start. Training itself runs on a worker thread from the built output, so
 * a model that trains is tested against the built process (test/e2e/models.int-spec.ts).
 */
describe('models API (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('models') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    account = created.body;
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
});
