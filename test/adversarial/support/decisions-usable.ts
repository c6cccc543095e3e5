import type { AdversarialServer, Tenant } from './adversarial-server';

/** Customers decided per proof: half of them labelled fraudsters, enough for a training (at least 20 of each). */
const CUSTOMERS = 60;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** How long a training of these few examples may take, polled: it runs off the request path by design. */
const TRAINING_DEADLINE_MS = 60_000;

type Model = { modelId: string; status: string; examples: number; positives: number; error?: string };
type Backtest = { evaluated: number; rules: Array<{ triggered: number; failed: number }>; labelled: { fraud: number; fraudTriggered: number; genuine: number; genuineTriggered: number } };

let proofs = 0;

/**
 * A period of payload time of its own for each proof, hours in the past, so that a backtest and
 * a training over it see exactly the decisions the proof made and nothing an attack sent "now".
 */
function nextPeriod(): { from: number; to: number } {
  proofs += 1;
  const from = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - (4 + 2 * proofs) * HOUR_MS;
  return { from, to: from + CUSTOMERS * MINUTE_MS };
}

/** Runs `work` on every item, `concurrency` at a time. */
async function inBatches<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += concurrency) await Promise.all(items.slice(start, start + concurrency).map(work));
}

/**
 * Issue 32's second "Done when": after hostile input, the tenant's decisions are still recorded,
 * readable by scoreId, backtestable and trainable. Decides 60 customers at the customer checkpoint
 * (every other one a fraudster signing up with a disposable e-mail, then labelled), then checks
 * that each decision reads back, that a backtest over their period evaluates exactly them with
 * the right labelled counts, and that a training over it ends `ready` with exactly them as examples.
 */
export async function expectDecisionsUsable(server: AdversarialServer, tenant: Tenant, apiKey = tenant.secretLive): Promise<void> {
  const { from, to } = nextPeriod();
  const marker = `usable-${tenant.role}-${proofs}-${Date.now().toString(36)}`;
  const customers = Array.from({ length: CUSTOMERS }, (_, index) => ({ customerId: `${marker}-${index}`, fraudster: index % 2 === 0, timestamp: from + index * MINUTE_MS }));
  const scoreIds: string[] = [];
  const failures: string[] = [];

  await inBatches(customers, 10, async ({ customerId, fraudster, timestamp }) => {
    const answer = await server.send<{ data?: { scoreId?: string } }>({
      method: 'POST',
      path: '/v2/customer',
      body: { timestamp, customer: { customerId, name: 'Sam Carter', email: `${customerId}@${fraudster ? 'mailinator.com' : 'example.com'}`, registrationTime: timestamp - MINUTE_MS } },
      apiKey,
    });
    if (answer.status !== 200 || answer.body.data?.scoreId === undefined) failures.push(`checkpoint of ${customerId}: ${answer.status} ${answer.text}`);
    else scoreIds.push(answer.body.data.scoreId);
    if (fraudster) {
      const labelled = await server.send({ method: 'POST', path: `/v2/customer/${customerId}/labels`, body: { review: 'FRAUDSTER' }, apiKey });
      if (labelled.status !== 200) failures.push(`label of ${customerId}: ${labelled.status} ${labelled.text}`);
    }
  });
  expect(failures).toEqual([]);

  await inBatches(scoreIds, 10, async (scoreId) => {
    const decision = await server.send({ path: `/v2/decisions/${scoreId}`, apiKey });
    if (decision.status !== 200) failures.push(`GET /v2/decisions/${scoreId}: ${decision.status}`);
  });
  expect(failures).toEqual([]);

  const backtest = await server.send<{ data: Backtest }>({
    method: 'POST',
    path: '/v2/rules/backtest',
    body: { checkpoint: 'customer', from, to, rules: [{ name: 'disposable e-mail', expression: 'payload.customer.email.endsWith("@mailinator.com")', action: 'PREVENT' }] },
    apiKey,
  });
  expect({ status: backtest.status, text: backtest.status === 200 ? 'ok' : backtest.text }).toEqual({ status: 200, text: 'ok' });
  expect(backtest.body.data).toMatchObject({
    evaluated: CUSTOMERS,
    rules: [{ triggered: CUSTOMERS / 2, failed: 0 }],
    labelled: { fraud: CUSTOMERS / 2, fraudTriggered: CUSTOMERS / 2, genuine: 0, genuineTriggered: 0 },
  });

  const started = await server.send<{ modelId: string }>({ method: 'POST', path: '/v2/models/train', body: { checkpoint: 'customer', from, to }, apiKey });
  expect({ status: started.status, text: started.status === 202 ? 'ok' : started.text }).toEqual({ status: 202, text: 'ok' });
  const model = await trainingEnd(server, started.body.modelId, apiKey);
  expect(model).toMatchObject({ status: 'ready', examples: CUSTOMERS, positives: CUSTOMERS / 2 });
}

/** Polls a training until it is no longer `training` (it runs on a worker, off the request path, by design). */
export async function trainingEnd(server: AdversarialServer, modelId: string, apiKey: string): Promise<Model> {
  const deadline = Date.now() + TRAINING_DEADLINE_MS;
  for (;;) {
    const model = (await server.send<Model>({ path: `/v2/models/${modelId}`, apiKey })).body;
    if (model.status !== 'training' || Date.now() > deadline) return model;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
