import { SeededRandom } from '../seeded-random';
import type { TrafficRecord } from '../traffic-record';
import { CARD_COMPROMISE_DAYS, LARGE_AMOUNT_THRESHOLD, STOLEN_CARD_AMOUNT_FACTOR, STOLEN_CARD_FRAUD_SHARE, TERMINAL_COMPROMISE_DAYS } from './card-fraud-plan';
import type { CardPaymentsOptions } from './card-payments-options';
import { CardPaymentsSimulation, type CardPaymentTruth } from './card-payments-simulation';
import { PAYING_RADIUS, placeCardWorld } from './card-world';

const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 0, 5);

interface Payment {
  transactionId: string;
  time: number;
  day: number;
  customerId: string;
  instrumentId: string;
  terminalId: string;
  amount: number;
}

interface Run {
  records: TrafficRecord[];
  payments: Payment[];
  disputes: TrafficRecord[];
  truth: CardPaymentTruth[];
  fraudById: Map<string, CardPaymentTruth>;
  simulation: CardPaymentsSimulation;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const body = (record: TrafficRecord) => record.body as Record<string, any>;

function simulate(options: Partial<CardPaymentsOptions>): Run {
  const simulation = new CardPaymentsSimulation({ start: START, ...options });
  const records = [...simulation.records()];
  const payments = records
    .filter((record) => record.path === '/psp/transaction')
    .map((record) => {
      const { transaction, paymentMethod, customer } = body(record);
      return { transactionId: transaction.transactionId, time: record.time, day: Math.floor((record.time - START) / DAY_MS), customerId: customer.customerId, instrumentId: paymentMethod.instrumentId, terminalId: transaction.mid, amount: transaction.amount };
    });
  const truth = simulation.truth();
  return { records, payments, disputes: records.filter((record) => record.path === '/psp/dispute'), truth, fraudById: new Map(truth.map((fraud) => [fraud.transactionId, fraud])), simulation };
}

const fraudShare = (run: Run) => run.truth.length / run.payments.length;
const ofPattern = (run: Run, pattern: CardPaymentTruth['pattern']) => run.truth.filter((fraud) => fraud.pattern === pattern);
const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] as number;

describe(CardPaymentsSimulation.name, () => {
  // One run at the default mix, shared by the pattern tests: about 60,000 payments, 600 of them fraud.
  let run: Run;
  beforeAll(() => {
    run = simulate({ seed: 'patterns', customers: 2000, terminals: 4000, days: 30, fraudRate: 0.01 });
  });

  it('gives the same records and truth for the same seed and options, and others for another seed', () => {
    const first = simulate({ seed: 'same', customers: 300, terminals: 600, days: 10 });
    const second = simulate({ seed: 'same', customers: 300, terminals: 600, days: 10 });
    const other = simulate({ seed: 'other', customers: 300, terminals: 600, days: 10 });
    expect(JSON.stringify(second.records)).toBe(JSON.stringify(first.records));
    expect(JSON.stringify(second.truth)).toBe(JSON.stringify(first.truth));
    expect(JSON.stringify(other.records)).not.toBe(JSON.stringify(first.records));
  });

  it('sends payments before authorisation in event-time order, each customer with its one card, at terminals of its neighbourhood', () => {
    for (let index = 1; index < run.records.length; index += 1) expect(run.records[index]!.time).toBeGreaterThanOrEqual(run.records[index - 1]!.time);
    expect(run.records.filter((record) => body(record).timestamp !== record.time)).toEqual([]);
    const payment = run.records.find((record) => record.path === '/psp/transaction')!;
    expect(payment.query).toEqual({ checkpoint: 'pspBeforeAuth' });
    expect(body(payment)).toEqual({
      timestamp: payment.time,
      transaction: { transactionId: expect.any(String), type: 'auth', stepId: 'auth-1', amount: expect.any(Number), currency: 'EUR', mid: expect.stringMatching(/^term-/) },
      paymentMethod: { methodType: 'card', instrumentId: expect.stringMatching(/^card-/), lastFour: expect.stringMatching(/^\d{4}$/) },
      customer: { customerId: expect.stringMatching(/^cus-/) },
    });
    const cardsOf = new Map<string, Set<string>>();
    const terminalsOf = new Map<string, Set<string>>();
    for (const { customerId, instrumentId, terminalId } of run.payments) {
      cardsOf.set(customerId, (cardsOf.get(customerId) ?? new Set()).add(instrumentId));
      terminalsOf.set(customerId, (terminalsOf.get(customerId) ?? new Set()).add(terminalId));
    }
    expect([...cardsOf.values()].every((cards) => cards.size === 1)).toBe(true);
    // 4,000 terminals on the 100 × 100 grid: about 31 within radius 5 of a customer.
    expect(Math.max(...[...terminalsOf.values()].map((terminals) => terminals.size))).toBeLessThan(60);
    expect(new Set(run.payments.map((payment) => payment.transactionId)).size).toBe(run.payments.length);
  });

  it('makes about the asked share of the payments fraudulent, split as the mix says', () => {
    expect(fraudShare(run)).toBeGreaterThan(0.0085);
    expect(fraudShare(run)).toBeLessThan(0.0115);
    const shareOf = (pattern: CardPaymentTruth['pattern']) => ofPattern(run, pattern).length / run.truth.length;
    expect(shareOf('large-amount')).toBeGreaterThan(0.06);
    expect(shareOf('large-amount')).toBeLessThan(0.14);
    expect(shareOf('compromised-terminal')).toBeGreaterThan(0.4);
    expect(shareOf('compromised-terminal')).toBeLessThan(0.6);
    expect(shareOf('stolen-card')).toBeGreaterThan(0.3);
    expect(shareOf('stolen-card')).toBeLessThan(0.5);

    const heavy = simulate({ seed: 'heavy', customers: 2000, terminals: 4000, days: 30, fraudRate: 0.02, fraudMix: { 'stolen-card': 8, 'compromised-terminal': 2 } });
    expect(fraudShare(heavy)).toBeGreaterThan(0.017);
    expect(fraudShare(heavy)).toBeLessThan(0.023);
    expect(ofPattern(heavy, 'large-amount')).toEqual([]);
    expect(ofPattern(heavy, 'stolen-card').length / heavy.truth.length).toBeGreaterThan(0.7);
  });

  it('large-amount fraud: with the pattern planted, a payment is fraud exactly when it is above the threshold', () => {
    const threshold = LARGE_AMOUNT_THRESHOLD * 100;
    expect(ofPattern(run, 'large-amount').length).toBeGreaterThan(20);
    for (const payment of run.payments) {
      if (payment.amount > threshold) expect(run.fraudById.has(payment.transactionId)).toBe(true);
      if (run.fraudById.get(payment.transactionId)?.pattern === 'large-amount') expect(payment.amount).toBeGreaterThan(threshold);
    }
  });

  it('compromised terminals: every payment at one, from the day it is compromised, for 28 days, is fraud', () => {
    const windows = run.simulation.compromises().filter((compromise) => compromise.pattern === 'compromised-terminal');
    expect(windows.length).toBe(run.simulation.stats().compromisedTerminals);
    expect(windows.every(({ fromDay, untilDay }) => untilDay - fromDay === TERMINAL_COMPROMISE_DAYS)).toBe(true);
    const compromisedOn = (payment: Payment) => windows.some(({ id, fromDay, untilDay }) => id === payment.terminalId && payment.day >= fromDay && payment.day < untilDay);
    let atCompromised = 0;
    for (const payment of run.payments) {
      const fraud = run.fraudById.get(payment.transactionId);
      if (compromisedOn(payment)) {
        atCompromised += 1;
        expect(fraud?.pattern).toBe('compromised-terminal');
      } else {
        expect(fraud?.pattern).not.toBe('compromised-terminal');
      }
    }
    expect(atCompromised).toBeGreaterThan(100);
  });

  it("stolen cards: for 14 days, about a third of the card's payments are fraud, at about five times the owner's amount", () => {
    const windows = run.simulation.compromises().filter((compromise) => compromise.pattern === 'stolen-card');
    expect(windows.length).toBe(run.simulation.stats().compromisedCards);
    expect(windows.every(({ fromDay, untilDay }) => untilDay - fromDay === CARD_COMPROMISE_DAYS)).toBe(true);
    const stolenOn = (payment: Payment) => windows.some(({ id, fromDay, untilDay }) => id === payment.instrumentId && payment.day >= fromDay && payment.day < untilDay);
    let inWindows = 0;
    let stolen = 0;
    for (const payment of run.payments) {
      const pattern = run.fraudById.get(payment.transactionId)?.pattern;
      // A compromised terminal's payment is that pattern's, whatever the card.
      if (stolenOn(payment) && pattern !== 'compromised-terminal') inWindows += 1;
      if (pattern === 'stolen-card') {
        stolen += 1;
        expect(stolenOn(payment)).toBe(true);
      }
    }
    expect(stolen).toBeGreaterThan(100);
    expect(stolen / inWindows).toBeGreaterThan(STOLEN_CARD_FRAUD_SHARE * 0.85);
    expect(stolen / inWindows).toBeLessThan(STOLEN_CARD_FRAUD_SHARE * 1.15);

    const genuineAmountsOf = new Map<string, number[]>();
    for (const payment of run.payments) if (!run.fraudById.has(payment.transactionId)) genuineAmountsOf.set(payment.instrumentId, [...(genuineAmountsOf.get(payment.instrumentId) ?? []), payment.amount]);
    const ratios = ofPattern(run, 'stolen-card').map((fraud) => fraud.amount / median(genuineAmountsOf.get(fraud.instrumentId) ?? [fraud.amount]));
    expect(median(ratios)).toBeGreaterThan(STOLEN_CARD_AMOUNT_FACTOR * 0.7);
    expect(median(ratios)).toBeLessThan(STOLEN_CARD_AMOUNT_FACTOR * 1.4);
  });

  it('disputes every fraudulent payment once, the configured days after it, and nothing else', () => {
    const late = simulate({ seed: 'late', customers: 800, terminals: 1600, days: 21, fraudRate: 0.02, disputeDelayDays: 10 });
    const paymentsById = new Map(late.payments.map((payment) => [payment.transactionId, payment]));
    expect(late.disputes.length).toBe(late.truth.length);
    expect(new Set(late.disputes.map((dispute) => body(dispute).dispute.transactionId)).size).toBe(late.disputes.length);
    for (const dispute of late.disputes) {
      const { transactionId, disputeId, amount, disputeTime, stage, outcome } = body(dispute).dispute;
      expect(late.fraudById.has(transactionId)).toBe(true);
      const payment = paymentsById.get(transactionId)!;
      expect(dispute.time).toBe(payment.time + 10 * DAY_MS);
      expect({ disputeId, amount, disputeTime, stage, outcome }).toEqual({ disputeId: late.fraudById.get(transactionId)!.disputeId, amount: payment.amount, disputeTime: dispute.time, stage: 'CHARGEBACK', outcome: 'LOST' });
    }
  });

  it('switching a pattern leaves the genuine payments as they were', () => {
    const options = { seed: 'switch', customers: 400, terminals: 800, days: 14, fraudRate: 0.02 };
    const terminals = simulate({ ...options, fraudMix: { 'compromised-terminal': 1 } });
    const cards = simulate({ ...options, fraudMix: { 'stolen-card': 1 } });
    expect(ofPattern(terminals, 'compromised-terminal').length).toBe(terminals.truth.length);
    expect(ofPattern(cards, 'stolen-card').length).toBe(cards.truth.length);
    const where = (payment: Payment) => `${payment.time} ${payment.customerId} ${payment.terminalId}`;
    expect(terminals.payments.map(where)).toEqual(cards.payments.map(where));
    const genuine = (one: Run, other: Run) => one.payments.filter((payment) => !one.fraudById.has(payment.transactionId) && !other.fraudById.has(payment.transactionId));
    expect(genuine(terminals, cards).map((payment) => payment.amount)).toEqual(genuine(cards, terminals).map((payment) => payment.amount));
  });

  it('refuses options out of range, naming them', () => {
    expect(() => new CardPaymentsSimulation({ fraudMix: { 'promo-abuse': 1 } as never })).toThrow(/fraud mix names unknown patterns \(promo-abuse\)/);
    expect(() => new CardPaymentsSimulation({ fraudMix: { 'stolen-card': 0 } })).toThrow(/at least one pattern a positive weight/);
    expect(() => new CardPaymentsSimulation({ terminals: 0 })).toThrow(/terminals must be/);
    expect(() => new CardPaymentsSimulation({ fraudRate: 0.5 })).toThrow(/fraud rate must be/);
  });
});

describe(placeCardWorld.name, () => {
  it('gives each customer exactly the terminals within the paying radius', () => {
    const { customers, terminals } = placeCardWorld(new SeededRandom('grid'), 'tst', 200, 2000, 1);
    for (const customer of customers) {
      const near = terminals.filter((terminal) => (terminal.x - customer.x) ** 2 + (terminal.y - customer.y) ** 2 <= PAYING_RADIUS ** 2).map((terminal) => terminal.index);
      expect(customer.terminals).toEqual(near);
    }
  });
});
