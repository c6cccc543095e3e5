import { SeededRandom } from '../seeded-random';
import type { TrafficRecord } from '../traffic-record';
import { type CardPayment, cardDisputeBody, cardPaymentBody } from './card-payloads';
import {
  CARD_COMPROMISE_DAYS,
  Compromises,
  type FraudPlan,
  LARGE_AMOUNT_THRESHOLD,
  STOLEN_CARD_AMOUNT_FACTOR,
  STOLEN_CARD_FRAUD_SHARE,
  TERMINAL_COMPROMISE_DAYS,
  dailyCounts,
  fraudPlan,
} from './card-fraud-plan';
import { type CardFraudPattern, type CardPaymentsOptions, cardPaymentsOptions, fraudShares } from './card-payments-options';
import { type CardCustomer, type CardWorld, type Terminal, placeCardWorld } from './card-world';

const DAY_MS = 86_400_000;
const DAY_SECONDS = 86_400;

/** Ground truth: one record per fraudulent payment, with the pattern that made it and its dispute. */
export interface CardPaymentTruth {
  transactionId: string;
  pattern: CardFraudPattern;
  /** Event time of the payment (epoch ms). */
  time: number;
  customerId: string;
  instrumentId: string;
  terminalId: string;
  /** Minor units. */
  amount: number;
  disputeId: string;
  /** Event time of its dispute (epoch ms). */
  disputeTime: number;
}

/** A terminal or card compromised, and the days [fromDay, untilDay) it is (day 0: the first day). */
export interface CardCompromise {
  pattern: 'compromised-terminal' | 'stolen-card';
  /** The terminal's id (`transaction.mid`) or the card's `instrumentId`. */
  id: string;
  fromDay: number;
  untilDay: number;
}

export interface CardPaymentsStats {
  records: number;
  payments: number;
  disputes: number;
  fraudulentPayments: number;
  fraudByPattern: Record<CardFraudPattern, number>;
  customers: number;
  /** Customers with at least one terminal within reach (the others never pay). */
  payingCustomers: number;
  terminals: number;
  compromisedTerminals: number;
  compromisedCards: number;
  plan: FraudPlan;
}

interface DraftPayment {
  time: number;
  order: number;
  customer: CardCustomer;
  terminal: Terminal;
  amount: number;
  pattern?: CardFraudPattern;
}

/**
 * Card payments over days of event time with the textbook fraud patterns planted (README: "Card
 * payments"). Iterate `records()` once: payments (`pspBeforeAuth`) and disputes come in
 * event-time order, a day generated at a time; `truth()` and `stats()` are complete afterwards.
 *
 * Every customer's payments of a day draw from their own stream (seed, customer, day), and the
 * fraud's choices from others, so switching a pattern off leaves the genuine traffic as it was.
 */
export class CardPaymentsSimulation {
  readonly options: CardPaymentsOptions;
  private consumed = false;
  private readonly fraud: CardPaymentTruth[] = [];
  private statistics?: CardPaymentsStats;
  private compromised: CardCompromise[] = [];

  constructor(options: Partial<CardPaymentsOptions> = {}) {
    this.options = cardPaymentsOptions(options);
  }

  *records(): Generator<TrafficRecord> {
    if (this.consumed) throw new Error('a simulation runs once; create another for a second pass');
    this.consumed = true;
    const run = startRun(this.options);
    for (let day = 0; day < this.options.days; day += 1) {
      for (const draft of draftDay(run, day)) {
        yield* run.disputes.due(draft.time);
        yield this.paymentRecord(run, draft);
      }
    }
    yield* run.disputes.due(Number.POSITIVE_INFINITY);
    this.finish(run);
  }

  /** The payment's record; a fraudulent one also queues its dispute and goes into the truth. */
  private paymentRecord(run: CardRun, draft: DraftPayment): TrafficRecord {
    const { statistics } = run;
    run.sequence += 1;
    const suffix = `${run.idTag}${run.sequence.toString(36).padStart(6, '0')}`;
    const payment: CardPayment = { transactionId: `tx-${suffix}`, time: draft.time, customer: draft.customer, terminal: draft.terminal, amount: draft.amount };
    statistics.records += 1;
    statistics.payments += 1;
    const record: TrafficRecord = { path: '/psp/transaction', query: { checkpoint: 'pspBeforeAuth' }, time: draft.time, body: cardPaymentBody(payment) };
    if (draft.pattern === undefined) return record;
    const disputeTime = draft.time + Math.round(this.options.disputeDelayDays * DAY_MS);
    const disputeId = `dsp-${suffix}`;
    run.disputes.push({ path: '/psp/dispute', time: disputeTime, body: cardDisputeBody(payment, disputeId, disputeTime) });
    statistics.fraudulentPayments += 1;
    statistics.fraudByPattern[draft.pattern] += 1;
    this.fraud.push({
      transactionId: payment.transactionId,
      pattern: draft.pattern,
      time: draft.time,
      customerId: draft.customer.customerId,
      instrumentId: draft.customer.instrumentId,
      terminalId: draft.terminal.terminalId,
      amount: draft.amount,
      disputeId,
      disputeTime,
    });
    return record;
  }

  private finish({ world, statistics, terminalCompromises, cardCompromises }: CardRun): void {
    statistics.compromisedTerminals = terminalCompromises.history.length;
    statistics.compromisedCards = cardCompromises.history.length;
    this.statistics = statistics;
    this.compromised = [
      ...terminalCompromises.history.map(({ index, fromDay, untilDay }) => ({ pattern: 'compromised-terminal' as const, id: (world.terminals[index] as Terminal).terminalId, fromDay, untilDay })),
      ...cardCompromises.history.map(({ index, fromDay, untilDay }) => ({ pattern: 'stolen-card' as const, id: (world.customers[index] as CardCustomer).instrumentId, fromDay, untilDay })),
    ];
  }

  /** One record per fraudulent payment, in event-time order (complete once `records()` is exhausted). */
  truth(): CardPaymentTruth[] {
    return [...this.fraud];
  }

  /** Every terminal and card compromised, and when (complete once `records()` is exhausted). */
  compromises(): CardCompromise[] {
    return [...this.compromised];
  }

  /** Counts of what was generated, and the fraud plan (complete once `records()` is exhausted). */
  stats(): CardPaymentsStats {
    if (this.statistics === undefined) throw new Error('stats are known once records() has been iterated to the end');
    return this.statistics;
  }
}

/** The state of one run of the simulation, day after day. */
interface CardRun {
  random: SeededRandom;
  idTag: string;
  world: CardWorld;
  paying: CardCustomer[];
  plan: FraudPlan;
  largeAmountPlanted: boolean;
  terminalCompromises: Compromises;
  cardCompromises: Compromises;
  terminalsPerDay: number[];
  cardsPerDay: number[];
  statistics: CardPaymentsStats;
  disputes: DisputeQueue;
  /** Payments made so far (their ids count up). */
  sequence: number;
  /** Event time of day 0's midnight (epoch ms). */
  startTime: number;
}

function startRun(options: CardPaymentsOptions): CardRun {
  const random = new SeededRandom(`ringfence-card-payments:${options.seed}`);
  // Ids differ between seeds, so two simulations sent to one account do not collide.
  const idTag = random.derive('ids').chars(3);
  const world = placeCardWorld(random, idTag, options.customers, options.terminals, options.paymentsPerDay);
  const paying = world.customers.filter((customer) => customer.terminals.length > 0);
  const plan = fraudPlan(options, paying.length);
  const shares = fraudShares(options.fraudMix);
  const terminalCompromises = new Compromises(
    world.terminals.map((terminal) => terminal.index),
    TERMINAL_COMPROMISE_DAYS,
  );
  const cardCompromises = new Compromises(
    paying.map((customer) => customer.index),
    CARD_COMPROMISE_DAYS,
  );
  const terminalsPerDay = shares['compromised-terminal'] > 0 ? dailyCounts(plan.terminalsCompromisedPerDay, options.days, random.derive('terminal-counts')) : [];
  const cardsPerDay = shares['stolen-card'] > 0 ? dailyCounts(plan.cardsCompromisedPerDay, options.days, random.derive('card-counts')) : [];
  const statistics: CardPaymentsStats = {
    records: 0,
    payments: 0,
    disputes: 0,
    fraudulentPayments: 0,
    fraudByPattern: { 'large-amount': 0, 'compromised-terminal': 0, 'stolen-card': 0 },
    customers: world.customers.length,
    payingCustomers: paying.length,
    terminals: world.terminals.length,
    compromisedTerminals: 0,
    compromisedCards: 0,
    plan,
  };
  const disputes = new DisputeQueue(statistics);
  return { random, idTag, world, paying, plan, largeAmountPlanted: shares['large-amount'] > 0, terminalCompromises, cardCompromises, terminalsPerDay, cardsPerDay, statistics, disputes, sequence: 0, startTime: options.start };
}

/** The delay is the same for every dispute, so disputes fall due in the order of their payments: a queue. */
class DisputeQueue {
  private readonly queued: TrafficRecord[] = [];
  private next = 0;

  constructor(private readonly statistics: CardPaymentsStats) {}

  push(dispute: TrafficRecord): void {
    this.queued.push(dispute);
  }

  *due(until: number): Generator<TrafficRecord> {
    while (this.next < this.queued.length && (this.queued[this.next] as TrafficRecord).time <= until) {
      this.statistics.records += 1;
      this.statistics.disputes += 1;
      yield this.queued[this.next] as TrafficRecord;
      this.next += 1;
    }
  }
}

/** The day's compromises, then every paying customer's payments of the day (fraud planted), in time order. */
function draftDay(run: CardRun, day: number): DraftPayment[] {
  const { random, paying } = run;
  run.terminalCompromises.compromise(day, run.terminalsPerDay[day] ?? 0, random.derive(`terminals-compromised:${day}`));
  run.cardCompromises.compromise(day, run.cardsPerDay[day] ?? 0, random.derive(`cards-compromised:${day}`));
  const drafts: DraftPayment[] = [];
  for (const customer of paying) {
    const payments = random.derive(`payments:${customer.index}:${day}`);
    const fraud = random.derive(`fraud:${customer.index}:${day}`);
    const count = poisson(payments, customer.dailyRate);
    for (let made = 0; made < count; made += 1) drafts.push(draftPayment(run, day, customer, payments, fraud, drafts.length));
  }
  drafts.sort((left, right) => left.time - right.time || left.order - right.order);
  return drafts;
}

function draftPayment(run: CardRun, day: number, customer: CardCustomer, payments: SeededRandom, fraud: SeededRandom, order: number): DraftPayment {
  const second = secondOfDay(payments, customer);
  const terminal = run.world.terminals[payments.pick(customer.terminals)] as Terminal;
  let amount = genuineAmount(payments, customer, run.largeAmountPlanted);
  // Three draws every payment, used or not, so one pattern's choice never shifts another's.
  const [stolenRoll, largeRoll, largeDraw] = [fraud.next(), fraud.next(), fraud.next()];
  let pattern: CardFraudPattern | undefined;
  if (run.terminalCompromises.isCompromised(terminal.index, day)) {
    pattern = 'compromised-terminal';
  } else if (run.cardCompromises.isCompromised(customer.index, day) && stolenRoll < STOLEN_CARD_FRAUD_SHARE) {
    pattern = 'stolen-card';
    amount *= STOLEN_CARD_AMOUNT_FACTOR;
  } else if (run.largeAmountPlanted && largeRoll < run.plan.largeAmountChance) {
    pattern = 'large-amount';
    // Above the threshold, up to twice it.
    amount = LARGE_AMOUNT_THRESHOLD * (1 + largeDraw) + 0.01;
  }
  const time = run.startTime + day * DAY_MS + Math.round(second * 1000);
  return { time, order, customer, terminal, amount: Math.max(1, Math.round(amount * 100)), ...(pattern ? { pattern } : {}) };
}

/** Poisson by Knuth's product of uniforms (rates here are a few a day). */
function poisson(random: SeededRandom, mean: number): number {
  const limit = Math.exp(-mean);
  let count = 0;
  for (let product = random.next(); product > limit; product *= random.next()) count += 1;
  return count;
}

/** Seconds after midnight, normal around the customer's usual time, drawn again until it falls within the day. */
function secondOfDay(random: SeededRandom, customer: CardCustomer): number {
  for (;;) {
    const second = customer.usualSecondOfDay + customer.secondOfDaySpread * random.normal();
    if (second >= 0 && second < DAY_SECONDS) return second;
  }
}

/**
 * Normal around the customer's mean; a negative draw is replaced by a uniform one up to twice the
 * mean (the handbook's rule). Where large amounts are a fraud pattern, a genuine payment is drawn
 * again until it is at most the threshold, so that "above it" means fraud exactly.
 */
function genuineAmount(random: SeededRandom, customer: CardCustomer, belowThreshold: boolean): number {
  for (;;) {
    let amount = customer.meanAmount + customer.amountSpread * random.normal();
    if (amount < 0) amount = random.between(0, 2 * customer.meanAmount);
    if (!belowThreshold || amount <= LARGE_AMOUNT_THRESHOLD) return amount;
  }
}
