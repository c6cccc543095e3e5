import { CLIENT_EVENTS_PATH, type TrafficRecord, TrafficSimulation, type TruthRecord } from '../index';

interface ClientEvents {
  deviceId: string;
  sessionId: string;
  customerId: string;
  timestamp: number;
  device: { timeZone: string; webdriver: boolean; fingerprint: string };
  events: Array<{ type: string; time: number; element?: { kind: string } }>;
}

function simulate(sdkTraffic: boolean): { records: TrafficRecord[]; truth: TruthRecord[] } {
  const simulation = new TrafficSimulation({ seed: 'sdk', customers: 1500, days: 14, fraudRate: 0.1, fraudMix: { 'card-testing': 1, 'account-takeover': 1, 'stolen-card': 1 }, sdkTraffic });
  const records = [...simulation.records()];
  return { records, truth: simulation.truth() };
}

/** Each payment's before-authorisation checkpoint with the client events sent just before it for its device, if any. */
function paymentsWithSessions(records: TrafficRecord[]): Array<{ transactionId: string; ipAddress: string; session?: ClientEvents }> {
  const payments = [];
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index]!;
    if (record.query?.checkpoint !== 'pspBeforeAuth') continue;
    const body = record.body as { transaction: { transactionId: string }; device: { deviceId: string; ipAddress: string } };
    const previous = records[index - 1];
    const session = previous?.path === CLIENT_EVENTS_PATH && previous.time === record.time ? (previous.body as unknown as ClientEvents) : undefined;
    if (session) expect(session.deviceId).toBe(body.device.deviceId);
    payments.push({ transactionId: body.transaction.transactionId, ipAddress: body.device.ipAddress, ...(session ? { session } : {}) });
  }
  return payments;
}

const cardPastes = (session: ClientEvents) => session.events.filter((event) => event.type === 'paste' && event.element?.kind === 'cc-number').length;
const share = <T>(items: T[], test: (item: T) => boolean) => items.filter(test).length / Math.max(1, items.length);

describe('the web SDK traffic of the simulation', () => {
  let on: { records: TrafficRecord[]; truth: TruthRecord[] };
  beforeAll(() => {
    on = simulate(true);
  });

  it('is the same for the same seed, and turning it off leaves every other record as it was', () => {
    const again = simulate(true);
    expect(JSON.stringify(again.records)).toBe(JSON.stringify(on.records));
    const off = simulate(false);
    expect(off.records.some((record) => record.path === CLIENT_EVENTS_PATH)).toBe(false);
    expect(JSON.stringify(on.records.filter((record) => record.path !== CLIENT_EVENTS_PATH))).toBe(JSON.stringify(off.records));
    expect(JSON.stringify(off.truth)).toBe(JSON.stringify(on.truth));
  });

  it('sends each batch just before a payment checkpoint naming its device, events on the browser clock up to it', () => {
    const batches = on.records.filter((record) => record.path === CLIENT_EVENTS_PATH);
    const sessions = paymentsWithSessions(on.records).flatMap((payment) => (payment.session ? [payment.session] : []));
    expect(batches.length).toBeGreaterThan(500);
    expect(sessions).toHaveLength(batches.length);
    for (const batch of batches) {
      const body = batch.body as unknown as ClientEvents;
      expect(body.timestamp).toBe(batch.time);
      expect(body.events.length).toBeLessThanOrEqual(100);
      expect(body.events.every((event) => event.time <= batch.time)).toBe(true);
    }
  });

  it('genuine shoppers: no webdriver, several page views, their market\'s time zone, a card pasted now and then', () => {
    const fraudulent = new Set(on.truth.flatMap((truth) => truth.transactionIds));
    const genuine = paymentsWithSessions(on.records).filter((payment) => !fraudulent.has(payment.transactionId));
    const sessions = genuine.flatMap((payment) => (payment.session ? [payment.session] : []));
    expect(share(genuine, (payment) => payment.session !== undefined)).toBeGreaterThan(0.85);
    expect(sessions.some((session) => session.device.webdriver)).toBe(false);
    expect(share(sessions, (session) => session.events.filter((event) => event.type === 'pageview').length >= 2)).toBe(1);
    expect(share(sessions, (session) => session.device.timeZone.startsWith('Europe/'))).toBeGreaterThan(0.95);
    const pasted = share(sessions, (session) => cardPastes(session) > 0);
    expect(pasted).toBeGreaterThan(0.01);
    expect(pasted).toBeLessThan(0.08);
  });

  it('fraudsters: card testers paste card numbers, some from automated browsers; takeovers report foreign time zones; some send nothing', () => {
    const byKind = (kind: string) => {
      const transactions = new Set(on.truth.filter((truth) => truth.kind === kind).flatMap((truth) => truth.transactionIds));
      return paymentsWithSessions(on.records).filter((payment) => transactions.has(payment.transactionId));
    };
    const sessionsOf = (kind: string) => byKind(kind).flatMap((payment) => (payment.session ? [payment.session] : []));
    expect(share(sessionsOf('card-testing'), (session) => cardPastes(session) > 0)).toBeGreaterThan(0.5);
    expect(sessionsOf('card-testing').some((session) => session.device.webdriver)).toBe(true);
    expect(share(sessionsOf('account-takeover'), (session) => !session.device.timeZone.startsWith('Europe/') || ['Europe/Moscow', 'Europe/Kyiv', 'Europe/Bucharest'].includes(session.device.timeZone))).toBeGreaterThan(0.3);
    const everyFraud = [...byKind('card-testing'), ...byKind('account-takeover'), ...byKind('stolen-card')];
    expect(share(everyFraud, (payment) => payment.session === undefined)).toBeGreaterThan(0.05);
  });
});
