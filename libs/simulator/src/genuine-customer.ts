import { GENUINE_CATEGORY_WEIGHTS, GENUINE_DEVICES, type Market, ipAddress } from './catalogue';
import { type Commerce, type PaymentBehaviour, basketMinor } from './commerce';
import { type Card, type CustomerAccount, type EmailBook, type SimDevice, address } from './entities';
import { voucherRequest } from './payloads/order-payloads';
import { customerRequest, registrationRequest } from './payloads/party-payloads';
import type { SeededRandom } from './seeded-random';
import { DAY_MS, HOUR_MS, MINUTE_MS } from './world';

/** The marketplace's own welcome vouchers, one per currency (created at the start). */
const WELCOME_GBP = { code: 'WELCOME10', type: 'GENERAL', value: 1000, currency: 'GBP' };
const WELCOME_EUR = { code: 'WELCOME10EU', type: 'GENERAL', value: 1000, currency: 'EUR' };
export const WELCOME_VOUCHERS = [WELCOME_GBP, WELCOME_EUR] as const;

export function welcomeVoucher(currency: string): (typeof WELCOME_VOUCHERS)[number] {
  return currency === 'EUR' ? WELCOME_EUR : WELCOME_GBP;
}

const MAX_TAKEOVER_CANDIDATES = 500;
const MAX_REFERRAL_CODES = 200;

/** The usual outcome of a genuine payment at the processor. */
export function genuineBehaviour(random: SeededRandom, amountMinor: number, savedCard: boolean): PaymentBehaviour {
  const threeDs: PaymentBehaviour['threeDs'] =
    amountMinor > 10_000 || random.chance(0.2)
      ? random.weighted([
          ['frictionless', 72],
          ['challenge-pass', 22],
          ['attempted', 3],
          ['challenge-fail', 3],
        ] as const)
      : 'none';
  const declineCode = random.chance(0.035)
    ? random.weighted([
        ['INSUFFICIENT_FUNDS', 50],
        ['DO_NOT_HONOR', 30],
        ['EXPIRED_CARD', 10],
        ['INCORRECT_CVC', 10],
      ] as const)
    : undefined;
  const avsResult = random.weighted([
    ['STRONG_MATCH', 85],
    ['PARTIAL_MATCH', 10],
    ['NOT_CHECKED', 5],
  ] as const);
  return {
    threeDs,
    ...(declineCode ? { declineCode } : {}),
    avs: { postalCode: avsResult, street: avsResult === 'PARTIAL_MATCH' ? 'NO_MATCH' : avsResult },
    cvv: declineCode === 'INCORRECT_CVC' ? 'FAIL' : savedCard && random.chance(0.4) ? 'NOT_CHECKED' : 'PASS',
  };
}

/**
 * A genuine customer: signs up (or already has an account), comes back in sessions that follow
 * the daily rhythm, logs in, now and then changes its details, orders with its cards, sometimes
 * uses a voucher or shares a referral code, rarely asks for a refund and more rarely disputes.
 */
export class GenuineCustomer {
  private readonly account: CustomerAccount;
  /** Mean time between sessions, in hours of average activity. */
  private readonly meanGapHours: number;
  private referralShared = false;
  private readonly primaryDevice: SimDevice;
  private readonly primaryCard: Card;

  constructor(
    private readonly commerce: Commerce,
    private readonly random: SeededRandom,
    market: Market,
    emails: EmailBook,
    private readonly isNew: boolean,
  ) {
    const world = commerce.world;
    const registrationTime = isNew ? world.now : world.start - random.int(20, 900) * DAY_MS;
    this.account = commerce.newAccount(random, market, (given, family) => emails.address(random, given, family), registrationTime);
    if (!isNew) {
      this.account.emailVerifiedTime = registrationTime + random.int(2, 60) * MINUTE_MS;
      this.account.telephoneVerifiedTime = registrationTime + random.int(2, 120) * MINUTE_MS;
    }
    this.primaryDevice = commerce.deviceFor(random, random.weighted(GENUINE_DEVICES), market);
    this.account.devices.push(this.primaryDevice);
    if (random.chance(0.3)) this.account.devices.push(commerce.deviceFor(random, random.weighted(GENUINE_DEVICES), market));
    this.primaryCard = commerce.newCard(random, this.account, this.account.address);
    this.account.cards.push(this.primaryCard);
    if (random.chance(0.2)) this.account.cards.push(commerce.newCard(random, this.account, this.account.address));
    this.meanGapHours = Math.min(24 * 30, random.logNormal(24 * 5, 0.8));
  }

  /** Schedules the customer's first appearance at the current time. */
  start(): void {
    if (this.isNew) this.register();
    else this.session(true);
  }

  private ip(device: SimDevice): string {
    return this.random.chance(0.75) ? device.homeIp : ipAddress(this.random, this.account.market.ipPrefixes);
  }

  private register(): void {
    const { world } = this.commerce;
    const random = this.random;
    const device = this.primaryDevice;
    const ip = this.ip(device);
    const platform = device.profile.type === 'desktop' ? 'web' : device.profile.os.startsWith('iOS') ? 'ios' : 'android';
    let time = world.now;
    if (random.chance(0.04)) {
      world.emit(time, '/v2/registration', registrationRequest(time, this.account, device, ip, { hash: this.commerce.passwordHash(random, true), success: false }, platform));
      time += random.int(20, 90) * 1000;
    }
    world.emit(time, '/v2/registration', registrationRequest(time, this.account, device, ip, { hash: this.commerce.passwordHash(random, false), success: true }, platform));
    this.account.registrationTime = time;
    time += random.int(1, 10) * MINUTE_MS;
    this.account.emailVerifiedTime = time;
    world.emit(time, '/v2/customer', customerRequest(time, 'email-verified', this.account, device, ip));
    const firstOrderAt = time + random.int(2, 40) * MINUTE_MS;
    world.traffic(firstOrderAt, () => {
      const referral = this.commerce.marketplace.referralCodes.filter((code) => code.currency === this.account.market.currency);
      if (referral.length > 0 && random.chance(0.1)) this.commerce.redeemVoucher(this.account, { ...random.pick(referral), type: 'REFERRAL' });
      else if (random.chance(0.45)) this.commerce.redeemVoucher(this.account, welcomeVoucher(this.account.market.currency));
      this.order(device, ip);
      this.next();
    });
  }

  /** A visit; an existing customer's first one in the window always signs in, so the API learns of it. */
  private session(first = false): void {
    const { world } = this.commerce;
    const random = this.random;
    if (this.account.lockedAt !== undefined && this.account.lockedAt <= world.now) return;
    const device = random.chance(0.85) ? this.primaryDevice : random.pick(this.account.devices);
    const ip = this.ip(device);
    if (first || random.chance(0.4)) world.emit(world.now, '/v2/customer', customerRequest(world.now, 'login', this.account, device, ip));
    if (random.chance(0.03)) {
      this.account.address = address(random, this.account.market);
      world.emit(world.now, '/v2/customer', customerRequest(world.now, 'profile-update', this.account, device, ip));
    }
    if (random.chance(0.6)) {
      const orderAt = world.now + random.int(1, 15) * MINUTE_MS;
      world.traffic(orderAt, () => this.order(device, ip));
    }
    if (!this.referralShared && random.chance(0.015)) this.shareReferralCode();
    this.next();
  }

  private next(): void {
    const { world } = this.commerce;
    world.traffic(world.clock.after(world.now + HOUR_MS, this.meanGapHours, this.random.next()), () => this.session());
  }

  private order(device: SimDevice, ip: string, retry = false): void {
    const random = this.random;
    const category = random.weighted(GENUINE_CATEGORY_WEIGHTS);
    const amountMinor = basketMinor(random, category.medianAmount, category.sigma);
    if (random.chance(0.03)) this.account.cards.push(this.commerce.newCard(random, this.account, this.account.address));
    const card = (retry ? this.account.cards.at(-1) : undefined) ?? this.primaryCard;
    const order = this.commerce.pay(random, {
      account: this.account,
      device,
      ipAddress: ip,
      card,
      category,
      amountMinor,
      shipTo: this.account.address,
      behaviour: genuineBehaviour(random, amountMinor, card.registrationTime < this.commerce.world.now - DAY_MS),
    });
    const { world, marketplace } = this.commerce;
    if (!order.approved) {
      if (!retry && random.chance(0.6)) {
        if (this.account.cards.length === 1 && random.chance(0.5)) this.account.cards.push(this.commerce.newCard(random, this.account, this.account.address));
        world.traffic(world.now + random.int(1, 5) * MINUTE_MS, () => this.order(device, ip, true));
      }
      return;
    }
    if (!this.isNew || this.account.orderCount > 1) offerAsTakeoverTarget(marketplace.takeoverCandidates, this.account, random);
    if (random.chance(0.03)) {
      world.traffic(world.now + random.between(1, 8) * DAY_MS, () =>
        this.commerce.refund(random, this.account, order, device, ip, random.pick(['damaged', 'wrong_item', 'late_delivery', 'changed_mind'])),
      );
    }
    if (random.chance(0.0015)) {
      this.commerce.disputeLater(order, random.between(10, 40) * DAY_MS, 'product_not_received', random.chance(0.75) ? 'WON' : 'LOST', random.between(15, 35) * DAY_MS);
    }
    if (random.chance(0.004)) {
      this.commerce.labelCustomerLater(world.now + random.between(0.5, 4) * DAY_MS, this.account.customerId, 'PAYMENT_FRAUD', 'GENUINE', 'Reviewed after a REVIEW decision: known customer, order delivered.', random);
    }
  }

  private shareReferralCode(): void {
    const { world, marketplace } = this.commerce;
    this.referralShared = true;
    const code = `REF-${this.account.givenName.normalize('NFD').replace(/[^A-Za-z]/g, '').toUpperCase()}${this.random.digits(4)}`;
    const currency = this.account.market.currency;
    world.emit(
      world.now,
      '/v2/voucher',
      voucherRequest(world.now, { code, type: 'REFERRAL', value: 1000, currency, expiry: world.now + 90 * DAY_MS, referrerId: this.account.customerId, referralValue: 500 }),
    );
    marketplace.referralCodes.push({ code, currency, value: 1000 });
    if (marketplace.referralCodes.length > MAX_REFERRAL_CODES) marketplace.referralCodes.shift();
  }
}

/** Reservoir-style: the candidates stay a bounded, changing sample of genuine customers with a saved card. */
function offerAsTakeoverTarget(candidates: CustomerAccount[], account: CustomerAccount, random: SeededRandom): void {
  if (candidates.includes(account)) return;
  if (candidates.length < MAX_TAKEOVER_CANDIDATES) candidates.push(account);
  else if (random.chance(0.1)) candidates[random.int(0, candidates.length - 1)] = account;
}
