import { type EmbeddedService, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';

// Bodies are free-form JSON here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

let sequence = 0;
/** Identifiers unique to one test, so tests share the service without sharing customers. */
const unique = (name: string) => `${name}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * A PSP dispute names only its transaction; the transaction (with its customer) comes on another
 * topic, handled by other lanes. Whichever arrives first, the customer is marked once both are
 * in, on the very next request (read your writes: no polling), and a later forgiving state
 * applies whatever the order.
 */
describe('PSP disputes and their transactions in any order (embedded, over HTTPS)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const post = (path: string, body: unknown) => service.client.send<Body>({ method: 'POST', path, body, apiKey: TEST_BOOTSTRAP_KEY });

  /** The ids of one transaction and its dispute, and the requests that send them. */
  function purchase() {
    const [buyer, transactionId, disputeId] = [unique('buyer'), unique('tx'), unique('dsp')];
    const start = Date.now();
    return {
      buyer,
      start,
      sendTransaction: async (timestamp = start) => {
        const body = { timestamp, transaction: { transactionId, amount: 1000, currency: 'GBP', type: 'auth', success: true }, customer: { customerId: buyer } };
        expect((await post('/psp/transaction', body)).status).toBe(200);
      },
      sendDispute: async (timestamp: number, fields: Body) => {
        const body = { timestamp, dispute: { disputeId, transactionId, amount: 1000, currency: 'GBP', stage: 'CHARGEBACK', ...fields } };
        expect((await post('/psp/dispute', body)).status).toBe(200);
      },
    };
  }

  /** The graph (connect) and the customer checkpoint, each on the very next request. */
  const graphOf = async (customerId: string) => {
    const response = await post('/v2/connect?features=true', { timestamp: Date.now(), customerId });
    expect(response.status).toBe(200);
    return response.body;
  };
  const checkpointSourceOf = async (customerId: string) => {
    const response = await post('/v2/customer', { timestamp: Date.now(), customer: { customerId } });
    expect(response.status).toBe(200);
    return response.body.data.source as string;
  };

  it('a dispute sent before its transaction marks the customer once the transaction arrives; a WON outcome forgives it', async () => {
    const { buyer, start, sendTransaction, sendDispute } = purchase();
    await sendDispute(start, { outcome: 'LOST' });
    await sendTransaction(start + 1);

    expect(await graphOf(buyer)).toMatchObject({ hopsToFraud: 0, chargebackCount: 1 });
    expect(await checkpointSourceOf(buyer)).toBe('CHARGEBACK');

    await sendDispute(start + 2, { outcome: 'WON' });

    expect(await graphOf(buyer)).toMatchObject({ hopsToFraud: -1, chargebackCount: 1 });
    expect(await checkpointSourceOf(buyer)).not.toBe('CHARGEBACK');
  });

  it('a dispute sent after its transaction marks the customer; a reversal (CHARGEBACK_REVERSED) forgives it', async () => {
    const { buyer, start, sendTransaction, sendDispute } = purchase();
    await sendTransaction(start);
    await sendDispute(start + 1, { outcome: 'LOST' });

    expect(await graphOf(buyer)).toMatchObject({ hopsToFraud: 0, chargebackCount: 1 });
    expect(await checkpointSourceOf(buyer)).toBe('CHARGEBACK');

    await sendDispute(start + 2, { stage: 'CHARGEBACK_REVERSED' });

    expect(await graphOf(buyer)).toMatchObject({ hopsToFraud: -1, chargebackCount: 1 });
    expect(await checkpointSourceOf(buyer)).not.toBe('CHARGEBACK');
  });

  it('a forgiving state sent before the lost one and before the transaction still wins, and replays change nothing', async () => {
    const { buyer, start, sendTransaction, sendDispute } = purchase();
    await sendDispute(start + 2, { outcome: 'WON' });
    await sendDispute(start + 1, { outcome: 'LOST' });
    await sendTransaction(start);
    await sendDispute(start + 1, { outcome: 'LOST' });
    await sendTransaction(start);

    expect(await graphOf(buyer)).toMatchObject({ hopsToFraud: -1, chargebackCount: 1 });
    expect(await checkpointSourceOf(buyer)).not.toBe('CHARGEBACK');
  });

  it('keeps a dispute that came before its transaction across a restart: the graph is rebuilt from the store of record', async () => {
    const { buyer, start, sendTransaction, sendDispute } = purchase();
    await sendDispute(start, { outcome: 'LOST' });
    await sendTransaction(start + 1);
    expect(await graphOf(buyer)).toMatchObject({ hopsToFraud: 0, chargebackCount: 1 });

    const dataDir = service.dataDir;
    await service.close();
    service = await startEmbeddedService({ DATA_DIR: dataDir });

    expect(await graphOf(buyer)).toMatchObject({ hopsToFraud: 0, chargebackCount: 1 });
    expect(await checkpointSourceOf(buyer)).toBe('CHARGEBACK');
  }, 60_000);
});
