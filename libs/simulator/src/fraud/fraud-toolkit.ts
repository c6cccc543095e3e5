import {
  DISPOSABLE_EMAIL_DOMAINS,
  FOREIGN_ISSUERS,
  FRAUD_DEVICES,
  FRAUD_ORIGIN_IP_PREFIXES,
  GENUINE_DEVICES,
  HOSTING_IP_PREFIXES,
  type Issuer,
  type Market,
  issuersOf,
} from '../catalogue';
import type { Commerce, PaymentBehaviour } from '../commerce';
import { type Address, type Card, type CustomerAccount, type SimDevice, address, personName } from '../entities';
import { customerRequest, registrationRequest } from '../payloads/party-payloads';
import type { SeededRandom } from '../seeded-random';
import { DAY_MS, type FraudActor, HOUR_MS, MINUTE_MS } from '../world';

/** Starts one fraud actor of a kind: plants its accounts, devices, cards and schedules its requests. */
export type FraudStarter = (commerce: Commerce, random: SeededRandom, actor: FraudActor, market: Market, accounts: number) => void;

const chargebackDelay = (random: SeededRandom) => Math.min(90, random.logNormal(18, 0.5)) * DAY_MS;
export const reviewDelay = (random: SeededRandom) => Math.min(10, random.logNormal(1.5, 0.6)) * DAY_MS;

/** What a fraudster's payment looks like at the processor when it uses a stolen card without 3-D Secure. */
export function stolenCardBehaviour(random: SeededRandom, threeDsRate: number): PaymentBehaviour {
  const threeDs: PaymentBehaviour['threeDs'] = random.chance(threeDsRate)
    ? random.weighted([
        ['challenge-fail', 65],
        ['attempted', 20],
        ['frictionless', 15],
      ] as const)
    : 'none';
  const declineCode =
    threeDs === 'none' && random.chance(0.35)
      ? random.weighted([
          ['LOST_OR_STOLEN', 35],
          ['SUSPECTED_FRAUD', 25],
          ['DO_NOT_HONOR', 30],
          ['PICKUP_CARD', 10],
        ] as const)
      : undefined;
  const avs = random.chance(0.7) ? 'NO_MATCH' : random.pick(['PARTIAL_MATCH', 'NOT_CHECKED']);
  return { threeDs, ...(declineCode ? { declineCode } : {}), avs: { postalCode: avs, street: 'NO_MATCH' }, cvv: random.chance(0.8) ? 'PASS' : 'FAIL' };
}

/** The shared steps of the fraud patterns: making accounts, signing up, paying, being caught. */
export class FraudToolkit {
  constructor(
    readonly commerce: Commerce,
    readonly random: SeededRandom,
    readonly actor: FraudActor,
    readonly market: Market,
  ) {}

  get world() {
    return this.commerce.world;
  }

  disposableEmail(): string {
    return `${this.random.chars(this.random.int(6, 9), 'abcdefghijklmnopqrstuvwxyz')}${this.random.digits(this.random.int(3, 6))}@${this.random.pick(DISPOSABLE_EMAIL_DOMAINS)}`;
  }

  plausibleEmail(given: string, family: string): string {
    const clean = (text: string) => text.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
    return `${clean(given)}.${clean(family)}${this.random.int(100, 9999)}@${this.random.pick(['gmail.com', 'outlook.com', 'yahoo.com'])}`;
  }

  account(email: (given: string, family: string) => string): CustomerAccount {
    const account = this.commerce.newAccount(this.random, this.market, email, this.world.now);
    this.actor.customerIds.add(account.customerId);
    return account;
  }

  fraudDevice(ipPrefixes: readonly string[]): SimDevice {
    const device = this.commerce.deviceFor(this.random, this.random.pick(FRAUD_DEVICES), this.market, ipPrefixes);
    this.actor.deviceIds.add(device.deviceId);
    return device;
  }

  genuineLookingDevice(ipPrefixes: readonly string[] = this.market.ipPrefixes): SimDevice {
    const device = this.commerce.deviceFor(this.random, this.random.weighted(GENUINE_DEVICES), this.market, ipPrefixes);
    this.actor.deviceIds.add(device.deviceId);
    return device;
  }

  /** Proxies: a cloud range, or the fraudster's own country. */
  riskyIpPrefixes(): readonly string[] {
    return this.random.chance(0.5) ? HOSTING_IP_PREFIXES : this.random.pick(Object.values(FRAUD_ORIGIN_IP_PREFIXES));
  }

  /** A card bought on a carding forum: someone else's name and billing address, often from abroad. */
  stolenCard(issuers: readonly Issuer[] = this.random.chance(0.6) ? FOREIGN_ISSUERS : issuersOf(this.market.country)): Card {
    const victim = personName(this.random, this.market);
    const issuer = this.random.pick(issuers);
    const billing: Address = { ...address(this.random, this.market), country: issuer.country };
    const card = this.commerce.newCard(this.random, victim, billing, [issuer]);
    this.actor.instrumentIds.add(card.instrumentId);
    return card;
  }

  signUp(account: CustomerAccount, device: SimDevice, ip: string, weakPassword: boolean): void {
    const time = this.world.now;
    this.world.emit(time, '/v2/registration', registrationRequest(time, account, device, ip, { hash: this.commerce.passwordHash(this.random, weakPassword), success: true }, device.profile.type === 'desktop' ? 'web' : 'android'));
    account.registrationTime = time;
    if (this.random.chance(0.5)) {
      const verifiedAt = time + this.random.int(1, 5) * MINUTE_MS;
      account.emailVerifiedTime = verifiedAt;
      this.world.emit(verifiedAt, '/v2/customer', customerRequest(verifiedAt, 'email-verified', account, device, ip));
    }
    this.actor.customerIds.add(account.customerId);
    this.actor.deviceIds.add(device.deviceId);
  }

  /** When the first dispute of this actor's payments is filed (known as soon as the payment is made). */
  firstChargeback?: number;

  /** The issuer disputes an approved stolen-card payment weeks later (most of the time). */
  chargeback(order: Parameters<Commerce['disputeLater']>[0], rate: number, reason = 'fraudulent'): void {
    if (!order.approved || !this.random.chance(rate)) return;
    const filed = this.commerce.disputeLater(order, chargebackDelay(this.random), reason, 'LOST', this.random.between(15, 40) * DAY_MS);
    this.firstChargeback = this.firstChargeback === undefined ? filed : Math.min(this.firstChargeback, filed);
  }

  /**
   * The analyst's verdict on the customers `ids()` names when it is given: caught in a review of
   * a decision about `reviewAfterMs` from now (half the time, or always when nothing was
   * disputed), else a few days after the first chargeback; some actors are never reviewed.
   */
  labelLater(ids: () => Iterable<string>, coverage: number, category: 'PAYMENT_FRAUD' | 'REFUND_ABUSE', review: string, comment: string, reviewAfterMs = reviewDelay(this.random)): void {
    if (!this.random.chance(coverage)) return;
    const byReview = this.random.chance(0.5);
    const decideAt = this.world.now + Math.min(reviewAfterMs, HOUR_MS);
    const reviewedAt = this.world.now + reviewAfterMs;
    this.world.later(decideAt, () => {
      const caughtAt = this.firstChargeback === undefined || byReview ? reviewedAt : this.firstChargeback + this.random.between(1, 4) * DAY_MS;
      this.world.later(caughtAt, () => {
        let time = this.world.now;
        for (const customerId of ids()) {
          this.commerce.labelCustomerLater(time, customerId, category, review, comment, this.random);
          time += this.random.int(1, 20) * MINUTE_MS;
        }
      });
    });
  }
}
