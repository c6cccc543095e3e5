import type { SeededRandom } from '../seeded-random';
import { type CardPaymentsOptions, fraudShares } from './card-payments-options';

/** Payments above this amount (major units) are fraud, when the large-amount pattern is planted. */
export const LARGE_AMOUNT_THRESHOLD = 220;
/** A compromised terminal's payments are fraud for this many days, from the day it is compromised. */
export const TERMINAL_COMPROMISE_DAYS = 28;
/** A compromised card is used by the fraudster for this many days, from the day it is compromised. */
export const CARD_COMPROMISE_DAYS = 14;
/** Of a compromised card's payments in that time, this share is the fraudster's… */
export const STOLEN_CARD_FRAUD_SHARE = 1 / 3;
/** …at this many times what the owner would have paid. */
export const STOLEN_CARD_AMOUNT_FACTOR = 5;

/**
 * How much of each pattern to plant so that, in expectation, the fraud is `fraudRate` of the
 * payments split by the mix: terminals and cards compromised each day, and the chance that a
 * payment not otherwise fraudulent is a large-amount fraud.
 *
 * Terminals are compromised uniformly, so one carries the mean load (all payments ÷ terminals a
 * day) and one compromised on day d adds that load × min(28, days − d) frauds; a card, chosen
 * among the customers who pay, adds its owner's mean rate × 1/3 × min(14, days − d). Both rates
 * cancel out of the counts asked for, which depend only on the population's size.
 */
export interface FraudPlan {
  terminalsCompromisedPerDay: number;
  cardsCompromisedPerDay: number;
  largeAmountChance: number;
}

export function fraudPlan(options: CardPaymentsOptions, payingCustomers: number): FraudPlan {
  const { days, fraudRate, terminals } = options;
  const shares = fraudShares(options.fraudMix);
  const windowDays = (length: number) => {
    let total = 0;
    for (let day = 0; day < days; day += 1) total += Math.min(length, days - day);
    return total;
  };
  const otherFraud = fraudRate * (1 - shares['large-amount']);
  return {
    terminalsCompromisedPerDay: (fraudRate * shares['compromised-terminal'] * days * terminals) / windowDays(TERMINAL_COMPROMISE_DAYS),
    cardsCompromisedPerDay: (fraudRate * shares['stolen-card'] * days * payingCustomers) / (STOLEN_CARD_FRAUD_SHARE * windowDays(CARD_COMPROMISE_DAYS)),
    // Large-amount fraud is drawn among the payments the other patterns left genuine.
    largeAmountChance: otherFraud >= 1 ? 0 : (fraudRate * shares['large-amount']) / (1 - otherFraud),
  };
}

/**
 * Whole counts a day whose running total follows `perDay` × days within one (stratified rounding
 * from a seeded offset): the planted fraud varies far less between seeds than with Poisson counts,
 * so a small run's fraud rate is still near the one asked for.
 */
export function dailyCounts(perDay: number, days: number, random: SeededRandom): number[] {
  const offset = random.next();
  return Array.from({ length: days }, (_, day) => Math.floor(perDay * (day + 1) + offset) - Math.floor(perDay * day + offset));
}

/**
 * Which terminals (or cards) are compromised on which days, day after day. A day's new
 * compromises are drawn uniformly among those not compromised then, each for `length` days from
 * that day.
 */
export class Compromises {
  private readonly until = new Map<number, number>();
  /** Every compromise: the index, and the days it covers [fromDay, untilDay). */
  readonly history: Array<{ index: number; fromDay: number; untilDay: number }> = [];

  constructor(
    private readonly candidates: readonly number[],
    private readonly length: number,
  ) {}

  compromise(day: number, count: number, random: SeededRandom): void {
    const available = this.candidates.length - this.activeOn(day);
    for (let made = 0; made < Math.min(count, available); made += 1) {
      let index = random.pick(this.candidates);
      while (this.isCompromised(index, day)) index = random.pick(this.candidates);
      this.until.set(index, day + this.length);
      this.history.push({ index, fromDay: day, untilDay: day + this.length });
    }
  }

  /** Whether it is compromised on `day`; asked for the day of the latest `compromise` call (days go forward). */
  isCompromised(index: number, day: number): boolean {
    const until = this.until.get(index);
    return until !== undefined && day < until;
  }

  private activeOn(day: number): number {
    let active = 0;
    for (const until of this.until.values()) if (day < until) active += 1;
    return active;
  }
}
