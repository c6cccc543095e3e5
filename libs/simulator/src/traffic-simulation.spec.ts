import { FRAUD_KINDS, type FraudKind, type SimulationOptions, type TrafficRecord, TrafficSimulation, type TruthRecord } from './index';

const DAY_MS = 86_400_000;

interface Run {
  records: TrafficRecord[];
  truth: TruthRecord[];
  stats: ReturnType<TrafficSimulation['stats']>;
}

function simulate(options: Partial<SimulationOptions>): Run {
  const simulation = new TrafficSimulation(options);
  const records = [...simulation.records()];
  return { records, truth: simulation.truth(), stats: simulation.stats() };
}

const body = (record: TrafficRecord) => record.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const customerOf = (record: TrafficRecord): string | undefined => {
  const b = body(record);
  return b.customer?.customerId ?? b.customerId ?? /^\/v2\/customer\/([^/]+)\/labels$/.exec(record.path)?.[1];
};
const deviceOf = (record: TrafficRecord): string | undefined => body(record).device?.deviceId;
const instrumentOf = (record: TrafficRecord): string | undefined => body(record).paymentMethod?.instrumentId;

describe(TrafficSimulation.name, () => {
  // One run with plenty of every kind of fraud, shared by the pattern tests.
  let rich: Run;
  beforeAll(() => {
    rich = simulate({ seed: 'patterns', customers: 2500, days: 21, fraudRate: 0.2, settleDays: 60 });
  });

  it('gives the same records for the same seed and options, and different ones for another seed', () => {
    const first = simulate({ seed: 'same', customers: 200, days: 5 });
    const second = simulate({ seed: 'same', customers: 200, days: 5 });
    const other = simulate({ seed: 'other', customers: 200, days: 5 });
    expect(JSON.stringify(second.records)).toBe(JSON.stringify(first.records));
    expect(JSON.stringify(second.truth)).toBe(JSON.stringify(first.truth));
    expect(JSON.stringify(other.records)).not.toBe(JSON.stringify(first.records));
  });

  it('emits every request in event time order, each body stamped with its record time', () => {
    const { records } = rich;
    for (let index = 1; index < records.length; index += 1) expect(records[index]!.time).toBeGreaterThanOrEqual(records[index - 1]!.time);
    const unstamped = records.filter((record) => !record.path.endsWith('/labels') && body(record).timestamp !== record.time);
    expect(unstamped).toEqual([]);
  });

  it('makes about the asked share of the customers fraudulent', () => {
    const { records, truth } = simulate({ seed: 'rate', customers: 3000, days: 14, fraudRate: 0.02 });
    const customers = new Set(records.map(customerOf).filter((id): id is string => id !== undefined));
    const fraudulent = new Set(truth.flatMap((actor) => actor.customerIds));
    expect(customers.size).toBeGreaterThan(2700);
    expect(fraudulent.size / customers.size).toBeGreaterThan(0.015);
    expect(fraudulent.size / customers.size).toBeLessThan(0.025);
  });

  it('plants every kind of fraud, each record of truth naming what the actor used and when it began', () => {
    const kinds = new Set(rich.truth.map((actor) => actor.kind));
    expect([...kinds].sort()).toEqual([...FRAUD_KINDS].sort());
    for (const actor of rich.truth) {
      expect(actor.fraudBegan).toBe(new Date(actor.fraudBeganAt).toISOString());
      expect(actor.customerIds.length + actor.supplierIds.length).toBeGreaterThan(0);
    }
  });

  const actorsOf = (kind: FraudKind) => rich.truth.filter((actor) => actor.kind === kind);
  const recordsOf = (customerIds: readonly string[]) => {
    const ids = new Set(customerIds);
    return rich.records.filter((record) => ids.has(customerOf(record) ?? ''));
  };
  /** The most customers of `ids` that share one value of `key`. */
  const mostSharing = (customerIds: readonly string[], key: (record: TrafficRecord) => string | undefined) => {
    const users = new Map<string, Set<string>>();
    for (const record of recordsOf(customerIds)) {
      const value = key(record);
      if (value) users.set(value, (users.get(value) ?? new Set()).add(customerOf(record)!));
    }
    return Math.max(0, ...[...users.values()].map((set) => set.size));
  };

  it('stolen-card rings share devices and cards between their accounts', () => {
    const rings = actorsOf('stolen-card').filter((actor) => actor.customerIds.length >= 3);
    expect(rings.length).toBeGreaterThan(0);
    for (const ring of rings) {
      expect(mostSharing(ring.customerIds, deviceOf)).toBeGreaterThanOrEqual(2);
      expect(mostSharing(ring.customerIds, instrumentOf)).toBeGreaterThanOrEqual(2);
    }
  });

  it('account takeovers log in from a device the customer never used, then change the e-mail address', () => {
    const takeovers = actorsOf('account-takeover');
    expect(takeovers.length).toBeGreaterThan(0);
    for (const takeover of takeovers) {
      const history = recordsOf(takeover.customerIds);
      const before = history.filter((record) => record.time < takeover.fraudBeganAt);
      const login = history.find((record) => record.time === takeover.fraudBeganAt && record.path === '/v2/customer');
      expect(before.length).toBeGreaterThan(0);
      expect(before.map(deviceOf)).not.toContain(deviceOf(login!));
      const emails = new Set(history.filter((record) => record.path === '/v2/customer').map((record) => body(record).customer.email));
      expect(emails.size).toBeGreaterThanOrEqual(2);
    }
  });

  it('card testing is a burst of small payments, mostly declined, across many cards', () => {
    for (const tester of actorsOf('card-testing')) {
      const results = recordsOf(tester.customerIds).filter((record) => record.query?.checkpoint === 'pspAfterAuth');
      const burst = results.filter((record) => record.time < tester.fraudBeganAt + 2 * 3_600_000);
      expect(burst.length).toBeGreaterThanOrEqual(30);
      expect(burst.every((record) => body(record).transaction.amount <= 300)).toBe(true);
      expect(burst.filter((record) => body(record).transaction.success === false).length / burst.length).toBeGreaterThan(0.6);
      expect(new Set(burst.map(instrumentOf)).size).toBe(burst.length);
    }
  });

  it('promotion abusers redeem the same welcome voucher on accounts sharing a device; referral abusers redeem their referrer\'s code', () => {
    for (const ring of actorsOf('promo-abuse')) {
      const redemptions = recordsOf(ring.customerIds).filter((record) => record.path === '/v2/paymentmethod/voucher');
      expect(new Set(redemptions.map((record) => body(record).voucherRedemption.voucherCode)).size).toBe(1);
      expect(redemptions.length).toBeGreaterThanOrEqual(2);
      expect(mostSharing(ring.customerIds, deviceOf)).toBeGreaterThanOrEqual(2);
    }
    for (const ring of actorsOf('referral-abuse')) {
      const code = ring.voucherCodes[0];
      const created = rich.records.find((record) => record.path === '/v2/voucher' && body(record).voucher.voucherCode === code);
      expect(ring.customerIds).toContain(body(created!).voucher.referrerId);
      const redeemers = rich.records.filter((record) => record.path === '/v2/paymentmethod/voucher' && body(record).voucherRedemption.voucherCode === code).map(customerOf);
      expect(redeemers.length).toBeGreaterThanOrEqual(1);
      expect(redeemers.every((id) => ring.customerIds.includes(id!))).toBe(true);
    }
  });

  it('refund abusers ask for most of their orders back, and are labelled REFUND_ABUSE if at all', () => {
    for (const abuser of actorsOf('refund-abuse')) {
      const refunds = recordsOf(abuser.customerIds).filter((record) => record.path === '/v2/refund');
      expect(refunds.length).toBe(abuser.refundIds.length);
      const labels = recordsOf(abuser.customerIds).filter((record) => record.path.endsWith('/labels'));
      expect(labels.every((record) => body(record).category === 'REFUND_ABUSE')).toBe(true);
    }
    expect(Math.max(...actorsOf('refund-abuse').map((abuser) => abuser.refundIds.length))).toBeGreaterThanOrEqual(3);
  });

  it('fake suppliers are paid out on demand into one shared virtual card, from the device of their colluding customers', () => {
    for (const ring of actorsOf('fake-supplier')) {
      const payouts = rich.records.filter((record) => record.path === '/v2/payout' && ring.supplierIds.includes(body(record).supplier.supplierId));
      if (payouts.length === 0) continue;
      expect(payouts.every((record) => body(record).payout.initiatedBy === 'SUPPLIER' && body(record).paymentMethod.virtualCard === true)).toBe(true);
      expect(new Set(payouts.map((record) => body(record).paymentMethod.instrumentId)).size).toBe(1);
      const supplierDevices = new Set(rich.records.filter((record) => record.path === '/v2/registration' && ring.supplierIds.includes(body(record).supplier?.supplierId)).map(deviceOf));
      expect(recordsOf(ring.customerIds).some((record) => supplierDevices.has(deviceOf(record)))).toBe(true);
    }
    expect(rich.records.some((record) => record.path.startsWith('/v2/supplier/') && body(record).review === 'FRAUDULENT')).toBe(true);
  });

  it('drifting fraud changes its tactics as the weeks pass', () => {
    const drifting = actorsOf('drifting-fraud').sort((left, right) => (left.detail.phase as number) - (right.detail.phase as number));
    const share = (actors: TruthRecord[]) =>
      actors.flatMap((actor) => Object.values(actor.detail.tactics as Record<string, boolean>)).filter(Boolean).length / Math.max(1, actors.length * 7);
    const half = Math.floor(drifting.length / 2);
    expect(half).toBeGreaterThanOrEqual(4);
    expect(share(drifting.slice(half)) - share(drifting.slice(0, half))).toBeGreaterThan(0.15);
  });

  it('labels and chargebacks come after the fraud, with a delay in event time', () => {
    const began = new Map<string, number>();
    for (const actor of rich.truth) for (const id of actor.customerIds) began.set(id, Math.min(began.get(id) ?? Infinity, actor.fraudBeganAt));
    const fraudLabels = rich.records.filter((record) => record.path.startsWith('/v2/customer/') && ['FRAUDSTER', 'REFUND_ABUSE'].includes(body(record).review));
    expect(fraudLabels.length).toBeGreaterThan(20);
    for (const label of fraudLabels) expect(label.time).toBeGreaterThan(began.get(customerOf(label)!)! + 3_600_000);

    const paymentTime = new Map(rich.records.filter((record) => record.query?.checkpoint === 'pspBeforeAuth').map((record) => [body(record).transaction.transactionId, record.time]));
    const disputes = rich.records.filter((record) => record.path === '/psp/dispute');
    const fraudTransactions = new Set(rich.truth.flatMap((actor) => actor.transactionIds));
    expect(disputes.filter((record) => fraudTransactions.has(body(record).dispute.transactionId)).length).toBeGreaterThan(20);
    for (const dispute of disputes) expect(dispute.time - paymentTime.get(body(dispute).dispute.transactionId)!).toBeGreaterThan(DAY_MS);
  });

  it('streams: records wait in memory only until they are due, and the first ones come before the rest is generated', () => {
    const { stats } = rich;
    expect(stats.peakPendingRecords).toBeLessThan(stats.records / 20);
    expect(stats.peakScheduledTasks).toBeLessThan(stats.customers + stats.suppliers + 500);

    const huge = new TrafficSimulation({ seed: 'huge', customers: 2_000_000, days: 28 });
    const startedAt = Date.now();
    const first: TrafficRecord[] = [];
    for (const record of huge.records()) {
      first.push(record);
      if (first.length === 1000) break;
    }
    expect(first).toHaveLength(1000);
    // Generating all of it would take minutes and gigabytes; the first records need a sliver of the population.
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect(huge.stats().customers).toBeLessThan(20_000);
  });

  it('plants only the kinds a fraud mix names, in its proportions, the same way each time for a seed', () => {
    const takeoversOnly = { seed: 'mix', customers: 800, days: 14, fraudRate: 0.04, fraudMix: { 'account-takeover': 1 } };
    const takeovers = simulate(takeoversOnly);
    expect(takeovers.truth.length).toBeGreaterThan(10);
    expect(new Set(takeovers.truth.map((actor) => actor.kind))).toEqual(new Set(['account-takeover']));
    expect(JSON.stringify(simulate(takeoversOnly).records)).toBe(JSON.stringify(takeovers.records));

    // No single-account kind in the mix: the budget's last accounts make a smaller ring of a kind given.
    const rings = simulate({ seed: 'mix', customers: 800, days: 14, fraudRate: 0.04, fraudMix: { 'stolen-card': 3, 'card-testing': 1, 'promo-abuse': 0 } });
    expect(new Set(rings.truth.map((actor) => actor.kind))).toEqual(new Set(['stolen-card', 'card-testing']));
    const count = (kind: FraudKind) => rings.truth.filter((actor) => actor.kind === kind).length;
    expect(count('stolen-card')).toBeGreaterThan(count('card-testing'));
  });

  it('refuses options out of range, naming the option', () => {
    expect(() => new TrafficSimulation({ customers: 5 })).toThrow(/customers/);
    expect(() => new TrafficSimulation({ fraudRate: 0.9 })).toThrow(/fraud rate/);
    expect(() => new TrafficSimulation({ days: 0 })).toThrow(/days/);
    const mix = (fraudMix: Record<string, number>) => () => new TrafficSimulation({ fraudMix });
    expect(mix({ 'stolen-card': 1, 'phishing': 2 })).toThrow(new RangeError('fraud mix names unknown kinds (phishing); the kinds are ' + FRAUD_KINDS.join(', ')));
    expect(mix({ 'stolen-card': -1, 'card-testing': 2 })).toThrow(/fraud mix weight of stolen-card/);
    expect(mix({ 'stolen-card': Number.NaN })).toThrow(/fraud mix weight of stolen-card/);
    expect(mix({ 'stolen-card': Number.POSITIVE_INFINITY })).toThrow(/fraud mix weight of stolen-card/);
    expect(mix({ 'stolen-card': 0 })).toThrow(/fraud mix must give at least one kind a positive weight/);
    expect(mix({})).toThrow(/fraud mix must give at least one kind a positive weight/);
    expect(mix({ 'refund-abuse': 0.5 })).not.toThrow();
  });
});
