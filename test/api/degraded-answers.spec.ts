import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { EventTopics } from '@ringfence/contracts';
import { EntityIngestHandler } from '@ringfence/service-ingestion';
import { type EmbeddedService, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest } from '../support/payload-factories';

// Bodies are free-form JSON here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

let sequence = 0;
const unique = (name: string) => `${name}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * A checkpoint whose data was kept never answers 5xx: when scoring cannot answer within the
 * budget (here 10 ms, while ingestion, which the checkpoint must wait for, holds the customer's
 * event), the answer is 200 with the account's default action and a `degraded` warning, the data
 * is kept, and the decision feed carries that answer once, never a late scored decision after it.
 * (The same for connect with features is in the intake's unit spec.)
 */
describe('degraded answers (embedded, a 10 ms scoring budget)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService({ RPC_TIMEOUT_MS: '10' });
  }, 60_000);

  afterAll(async () => {
    jest.restoreAllMocks();
    await service?.close();
  });

  const post = (path: string, body: unknown) => service.client.send<Body>({ method: 'POST', path, body, apiKey: TEST_BOOTSTRAP_KEY });

  /**
   * Ingestion holds `customerId`'s events until `release()`: a checkpoint of that customer waits
   * (read your writes) for an event its ingestion has not handled, whatever the machine's speed.
   */
  function holdIngestionOf(customerId: string): { release: () => void } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handle = EntityIngestHandler.prototype.handle;
    jest.spyOn(EntityIngestHandler.prototype, 'handle').mockImplementation(async function (this: EntityIngestHandler, route, message) {
      if (message.subjectId === customerId) await released;
      return handle.call(this, route, message);
    });
    return { release };
  }

  it('answers 200 with the default action, source RINGFENCE and a degraded warning, keeps the data, and publishes one decision', async () => {
    const customerId = unique('cus');
    const ingestion = holdIngestionOf(customerId);
    const response = await post('/v2/customer', customerRequest({ customer: { customerId } }));
    ingestion.release();

    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ customerId, action: 'ALLOW', source: 'RINGFENCE', score: 0 });
    expect(response.body.data.warnings).toEqual([{ class: 'degraded', help: '/docs/api#warning-degraded', msg: expect.stringContaining('scoring did not answer') }]);
    // Unscored, no rule was evaluated: the rules block says so, like a scored answer's (ADR-0011).
    expect(response.body.data.rules).toEqual({ triggered: [] });

    // Kept: the customer's event was durable before the answer.
    const logged = (topic: string) => service.app.get<EventLogStore>(EVENT_LOG_STORE).readAfter(topic, 0, 100_000);
    expect((await logged(EventTopics.customerUpdated)).filter((event) => event.envelope.subjectId === customerId)).toHaveLength(1);
    // Stopping drains every handler still running (scoring's included), so whatever it could
    // still publish is in the log once the service is started again on the same data.
    const { dataDir } = service;
    await service.close();
    jest.restoreAllMocks();
    service = await startEmbeddedService({ DATA_DIR: dataDir, RPC_TIMEOUT_MS: '10' });
    const decisions = (await logged(EventTopics.customerScored)).filter((event) => event.envelope.subjectId === customerId);
    expect(decisions.map((event) => (event.envelope.payload as Body).recommendation.source)).toEqual(['RINGFENCE']);
  }, 60_000);
});
