import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { EventTopics } from '@ringfence/contracts';
import { type EmbeddedService, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest } from '../support/payload-factories';

// Bodies are free-form JSON here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

let sequence = 0;
const unique = (name: string) => `${name}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * A checkpoint whose data was kept never answers 5xx: when scoring cannot answer within the
 * budget (here 10 ms, while ingestion works through a backlog the checkpoint must wait for), the
 * answer is 200 with the account's default action and a `degraded` warning, the data is kept,
 * and the decision feed carries that answer once, never a late scored decision after it. (The
 * same for connect with features is in the intake's unit spec: the graph catches up too fast
 * to be outrun from here.)
 */
describe('degraded answers (embedded, a 10 ms scoring budget)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService({ RPC_TIMEOUT_MS: '10' });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const post = (path: string, body: unknown) => service.client.send<Body>({ method: 'POST', path, body, apiKey: TEST_BOOTSTRAP_KEY });

  /**
   * Hundreds of ingest-only writes in flight: returns once the first few are answered, so the
   * ingestion consumer has hundreds of events to handle (far more than 10 ms of work) that the
   * next checkpoint must wait for. Resolve `settled` before the test ends.
   */
  async function backlog(): Promise<{ settled: Promise<void> }> {
    const sends = Array.from({ length: 600 }, () => post('/v2/supplier', { timestamp: Date.now(), supplier: { supplierId: unique('sup') } }));
    let answered = 0;
    await new Promise<void>((resolve) => {
      for (const send of sends) void send.then(() => (answered += 1) === 50 && resolve());
    });
    const settled = Promise.all(sends).then((answers) => expect(answers.every((answer) => answer.status === 200)).toBe(true));
    return { settled };
  }

  it('answers 200 with the default action, source RINGFENCE and a degraded warning, keeps the data, and publishes one decision', async () => {
    const { settled } = await backlog();
    const customerId = unique('cus');
    const response = await post('/v2/customer', customerRequest({ customer: { customerId } }));
    await settled;

    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ customerId, action: 'ALLOW', source: 'RINGFENCE', score: 0 });
    expect(response.body.data.warnings).toEqual([{ class: 'degraded', help: '/docs/api#warning-degraded', msg: expect.stringContaining('scoring did not answer') }]);

    // Kept: the customer's event was durable before the answer.
    const logged = (topic: string) => service.app.get<EventLogStore>(EVENT_LOG_STORE).readAfter(topic, 0, 100_000);
    expect((await logged(EventTopics.customerUpdated)).filter((event) => event.envelope.subjectId === customerId)).toHaveLength(1);
    // Stopping drains every handler still running (scoring's included), so whatever it could
    // still publish is in the log once the service is started again on the same data.
    const { dataDir } = service;
    await service.close();
    service = await startEmbeddedService({ DATA_DIR: dataDir, RPC_TIMEOUT_MS: '10' });
    const decisions = (await logged(EventTopics.customerScored)).filter((event) => event.envelope.subjectId === customerId);
    expect(decisions.map((event) => (event.envelope.payload as Body).recommendation.source)).toEqual(['RINGFENCE']);
  }, 60_000);
});
