import { API_KEY_CACHE_TTL_MS } from '@ringfence/accounts';
import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { BACKGROUND_STATEMENT } from '@ringfence/persistence';
import { DataSource } from 'typeorm';
import { pspTransactionRequest } from '../support/payload-factories';
import { type EmbeddedService, TEST_BOOTSTRAP_KEY, eventually, startEmbeddedService } from '../support/embedded-service';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Issue 11: "no synchronous database read on a checkpoint". In the embedded mode a checkpoint
 * sends the relational database no statement of its own: its appends (its event, then its
 * decision) go to the event log, which is LMDB (issue 35), and everything it decides from
 * (entities, labels, lookup evidence, keys and accounts, the graph, velocity) is in memory.
 * Write-behind projections and offset commits run beside it, marked background.
 * Checked on a customer who is labelled and whose e-mail was reported, the case that read
 * the labels' and the lookup's tables before.
 */
describe('a checkpoint in the embedded mode reads nothing from the database', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const post = (path: string, body: unknown) => service.client.send<Body>({ method: 'POST', path, body, apiKey: TEST_BOOTSTRAP_KEY });

  /** The SQL of every statement the app sends while `action` runs (a spy on each query runner the data source lends). */
  async function statementsDuring<T>(action: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const dataSource = service.app.get(DataSource);
    const lend = dataSource.createQueryRunner.bind(dataSource);
    const queries: Array<jest.SpyInstance> = [];
    const lending = jest.spyOn(dataSource, 'createQueryRunner').mockImplementation((mode) => {
      const runner = lend(mode);
      queries.push(jest.spyOn(runner, 'query'));
      return runner;
    });
    try {
      const result = await action();
      return { result, statements: queries.flatMap((query) => query.mock.calls.map(([sql]) => String(sql).trim())) };
    } finally {
      lending.mockRestore();
    }
  }

  const foreground = (statements: string[]) => statements.filter((sql) => !sql.startsWith(BACKGROUND_STATEMENT));

  const email = `mule-${Date.now()}@example.com`;
  const [labelled, unlabelled] = [`cus-labelled-${Date.now()}`, `cus-reported-${Date.now()}`];

  /** The checkpoints about the labelled and the reported customer, and what they must decide. */
  async function checkpointsAboutThem() {
    const outcome = await statementsDuring(async () => [
      await post('/v2/customer', { timestamp: Date.now(), customer: { customerId: labelled, email } }),
      await post('/v2/customer', { timestamp: Date.now(), customer: { customerId: unlabelled, email } }),
      await post('/psp/transaction?checkpoint=pspBeforeAuth', pspTransactionRequest({ customer: { customerId: unlabelled, email } })),
    ]);
    const [labelledAnswer, reportedAnswer, transactionAnswer] = outcome.result;
    expect(labelledAnswer.body.data).toMatchObject({ action: 'PREVENT', source: 'MANUAL_REVIEW' });
    expect(reportedAnswer.body.data).toMatchObject({ action: 'PREVENT', source: 'LOOKUP' });
    expect(transactionAnswer.status).toBe(200);
    // Its events and decisions are in the event log all the same.
    const decisions = await service.app.get<EventLogStore>(EVENT_LOG_STORE, { strict: false }).readAfter('ringfence.decision.customer.scored.v1', 0, 10_000);
    expect(decisions.map((event) => event.envelope.subjectId)).toEqual(expect.arrayContaining([labelled, unlabelled]));
    return outcome.statements;
  }

  it('decides from labels and known-fraud evidence held in memory', async () => {
    const reported = await post('/v2/lookup', {
      timestamp: Math.floor(Date.now() / 1000),
      email: { address: email },
      chargebacks: [{ chargebackId: `cb-${Date.now()}`, reason: 'fraudulent' }],
    });
    expect(reported.status).toBe(200);
    for (const customerId of [labelled, unlabelled]) {
      expect((await post('/v2/customer', { timestamp: Date.now(), customer: { customerId, email } })).status).toBe(200);
    }
    expect((await post(`/v2/customer/${labelled}/labels`, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
    // Longer than keys and accounts are reused where several processes write them: a sole writer reuses them for good.
    await new Promise((resolve) => setTimeout(resolve, API_KEY_CACHE_TTL_MS + 100));

    // The spy sees what the app sends (else an empty list would prove nothing).
    expect((await statementsDuring(() => service.app.get(DataSource).query('SELECT 1'))).statements).toEqual(['SELECT 1']);
    expect(foreground(await checkpointsAboutThem())).toEqual([]);
  });

  it('after a restart, decides from what the start loaded: keys, accounts, entity documents, labels and evidence', async () => {
    const { dataDir } = service;
    await service.close();
    service = await startEmbeddedService({ DATA_DIR: dataDir });
    // Polled because asynchronous by design: the start's loads (the graph's rebuild, the velocity
    // counters, the entity documents) run beside it, and readiness is the one place that says
    // when all of them are done. Checkpoints before that may read the tables.
    await eventually(async () => ((await service.client.send({ path: '/health/ready' })).status === 200 ? true : null), 30_000);
    expect(foreground(await checkpointsAboutThem())).toEqual([]);
    // A stop, a start and its loads: seconds on a loaded CI machine, past jest's default 5 s.
  }, 60_000);
});
