import {
  DISPOSABLE_EMAIL_DOMAINS,
  FOREIGN_ISSUERS,
  FRAUD_DEVICES,
  FRAUD_ORIGIN_IP_PREFIXES,
  GENUINE_DEVICES,
  HOSTING_IP_PREFIXES,
  type Issuer,
  type Market,
  categoryNamed,
  ipAddress,
  issuersOf,
} from './catalogue';
import { type Commerce, type PaymentBehaviour, basketMinor } from './commerce';
import { type Address, type Card, type CustomerAccount, type SimDevice, address, personName } from './entities';
import { genuineBehaviour, welcomeVoucher } from './genuine-customer';
import { customerRequest, registrationRequest, voucherRequest } from './payloads';
import type { SeededRandom } from './seeded-random';
import type { FraudKind } from './traffic-record';
import { DAY_MS, type FraudActor, HOUR_MS, MINUTE_MS } from './world';

/** How many customer accounts an actor of each kind uses (each one counts towards the fraud rate). */
export const FRAUD_MIX: ReadonlyArray<readonly [FraudKind, number]> = [
  ['stolen-card', 28],
  ['drifting-fraud', 16],
  ['account-takeover', 12],
  ['card-testing', 8],
  ['promo-abuse', 14],
  ['referral-abuse', 8],
  ['refund-abuse', 7],
  ['fake-supplier', 7],
];

export function accountsPerActor(kind: FraudKind, random: SeededRandom): number {
  switch (kind) {
    case 'stolen-card':
      return random.int(3, 6);
    case 'promo-abuse':
      return random.int(4, 9);
    case 'referral-abuse':
      return random.int(3, 7);
    case 'card-testing':
      return random.int(1, 2);
    case 'fake-supplier':
      return random.int(2, 3);
    case 'drifting-fraud':
    case 'account-takeover':
    case 'refund-abuse':
      return 1;
  }
}

const chargebackDelay = (random: SeededRandom) => Math.min(90, random.logNormal(18, 0.5)) * DAY_MS;
const reviewDelay = (random: SeededRandom) => Math.min(10, random.logNormal(1.5, 0.6)) * DAY_MS;

/** What a fraudster's payment looks like at the processor when it uses a stolen card without 3-D Secure. */
function stolenCardBehaviour(random: SeededRandom, threeDsRate: number): PaymentBehaviour {
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
class FraudToolkit {
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

type Starter = (commerce: Commerce, random: SeededRandom, actor: FraudActor, market: Market, accounts: number) => void;

/** Stolen-card ring: several new accounts sharing devices, proxies, drop addresses and a pool of stolen cards. */
const stolenCardRing: Starter = (commerce, random, actor, market, members) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const ipPrefixes = kit.riskyIpPrefixes();
  const devices = Array.from({ length: random.int(1, 2) }, () => (random.chance(0.6) ? kit.fraudDevice(ipPrefixes) : kit.genuineLookingDevice(ipPrefixes)));
  const cards = Array.from({ length: random.int(4, 10) }, () => kit.stolenCard());
  const drops = Array.from({ length: random.int(1, 2) }, () => address(random, market));
  actor.detail.ringSize = members;
  actor.detail.sharedDevices = devices.length;
  actor.detail.sharedCards = cards.length;
  const world = commerce.world;
  let at = world.now;
  for (let index = 0; index < members; index += 1) {
    world.traffic(at, () => {
      const account = kit.account((given, family) => (random.chance(0.4) ? kit.disposableEmail() : kit.plausibleEmail(given, family)));
      const device = random.pick(devices);
      const ip = ipAddress(random, ipPrefixes);
      kit.signUp(account, device, ip, random.chance(0.4));
      let orderAt = world.now + random.int(5, 120) * MINUTE_MS;
      const count = random.int(2, 5);
      for (let order = 0; order < count; order += 1) {
        const first = order === 0;
        world.traffic(orderAt, () => {
          const category = categoryNamed(random.weighted([['electronics', 50], ['gift-cards', 35], ['fashion', 15]] as const));
          kit.chargeback(
            commerce.pay(random, {
              account,
              device,
              ipAddress: random.chance(0.7) ? ip : ipAddress(random, ipPrefixes),
              card: random.pick(cards),
              category,
              amountMinor: basketMinor(random, 260, 0.5),
              shipTo: random.pick(drops),
              behaviour: stolenCardBehaviour(random, 0.3),
              fraud: actor,
            }),
            0.9,
          );
          if (first) kit.labelLater(() => [account.customerId], 0.88, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Stolen cards; ring sharing devices and cards.');
        });
        orderAt += random.between(0.5, 30) * HOUR_MS;
      }
    });
    at += random.exponential(8 * HOUR_MS);
  }
};

/** Account takeover: a genuine customer's account used from a new device, details changed, saved card spent. */
const accountTakeover: Starter = (commerce, random, actor, market) => takeOver(commerce, random, actor, market, 0);

function takeOver(commerce: Commerce, random: SeededRandom, actor: FraudActor, market: Market, attempt: number): void {
  const world = commerce.world;
  const candidates = commerce.marketplace.takeoverCandidates.filter((candidate) => candidate.lockedAt === undefined && candidate.cards.length > 0);
  if (candidates.length === 0) {
    // Too early in the run for a victim with a saved card: try again the next day.
    if (attempt < 10) world.traffic(world.now + DAY_MS, () => takeOver(commerce, random, actor, market, attempt + 1));
    return;
  }
  const victim = random.pick(candidates);
  commerce.marketplace.takeoverCandidates.splice(commerce.marketplace.takeoverCandidates.indexOf(victim), 1);
  const kit = new FraudToolkit(commerce, random, actor, victim.market);
  const foreign = random.chance(0.6);
  const ipPrefixes = foreign ? kit.riskyIpPrefixes() : victim.market.ipPrefixes;
  const device = random.chance(0.5) ? kit.fraudDevice(ipPrefixes) : kit.genuineLookingDevice(ipPrefixes);
  const ip = ipAddress(random, ipPrefixes);
  actor.customerIds.add(victim.customerId);
  actor.detail.victimRegisteredAt = victim.registrationTime;
  actor.detail.attackerAbroad = foreign;
  actor.acted(world.now);
  world.emit(world.now, '/v2/customer', customerRequest(world.now, 'login', victim, device, ip));
  const changedAt = world.now + random.int(2, 12) * MINUTE_MS;
  world.traffic(changedAt, () => {
    victim.email = `${random.chars(8, 'abcdefghijklmnopqrstuvwxyz')}${random.digits(3)}@proton.me`;
    victim.emailVerifiedTime = undefined;
    if (random.chance(0.6)) victim.telephone = `+44${random.pick(['7', '7'])}${random.digits(9)}`;
    actor.detail.newEmail = victim.email;
    world.emit(world.now, '/v2/customer', customerRequest(world.now, 'profile-update', victim, device, ip));
    const drop = address(random, victim.market);
    let orderAt = world.now + random.int(5, 60) * MINUTE_MS;
    const count = random.int(1, 4);
    let firstDispute: number | undefined;
    for (let index = 0; index < count; index += 1) {
      const first = index === 0;
      world.traffic(orderAt, () => {
        const savedCard = victim.cards[0];
        const card = savedCard && random.chance(0.75) ? savedCard : kit.stolenCard();
        const saved = card === savedCard;
        const order = commerce.pay(random, {
            account: victim,
            device,
            ipAddress: ip,
            card,
            category: categoryNamed(random.weighted([['electronics', 55], ['gift-cards', 35], ['tickets', 10]] as const)),
            amountMinor: basketMinor(random, 220, 0.5),
            shipTo: drop,
            behaviour: saved ? { threeDs: 'none', avs: { postalCode: 'STRONG_MATCH', street: 'STRONG_MATCH' }, cvv: 'NOT_CHECKED' } : stolenCardBehaviour(random, 0.3),
            fraud: actor,
          });
        // The owner notices within days and disputes: faster than a stolen card's issuer.
        if (order.approved && random.chance(0.9)) {
          const filed = commerce.disputeLater(order, random.between(2, 12) * DAY_MS, 'unauthorised', 'LOST', random.between(15, 40) * DAY_MS);
          firstDispute = firstDispute === undefined ? filed : Math.min(firstDispute, filed);
        }
        if (first) {
          if (random.chance(0.85)) {
            const labelledAt = (firstDispute ?? world.now + reviewDelay(random)) + random.between(0.5, 3) * DAY_MS;
            commerce.labelCustomerLater(labelledAt, victim.customerId, 'PAYMENT_FRAUD', 'FRAUDSTER', `Account takeover: new device and e-mail from ${new Date(actor.began ?? world.now).toISOString()}.`, random);
            victim.lockedAt = labelledAt;
          }
        }
      });
      orderAt += random.between(0.2, 20) * HOUR_MS;
    }
  });
}

/** Card testing: a bot trying many cards of one BIN with tiny amounts, at night, mostly declined. */
const cardTesting: Starter = (commerce, random, actor, market, accounts) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const ipPrefixes = HOSTING_IP_PREFIXES;
  const device = kit.fraudDevice(ipPrefixes);
  const members = Array.from({ length: accounts }, () => kit.account(() => kit.disposableEmail()));
  const home = address(random, market);
  const ip = ipAddress(random, ipPrefixes);
  for (const account of members) kit.signUp(account, device, ip, true);
  const day = Math.floor(world.now / DAY_MS) * DAY_MS;
  let burstAt = day + DAY_MS + random.int(1, 4) * HOUR_MS + random.int(0, 59) * MINUTE_MS;
  if (burstAt <= world.now) burstAt = world.now + HOUR_MS;
  const attempts = random.int(30, 140);
  const issuer = random.pick([...FOREIGN_ISSUERS, ...issuersOf(market.country)]);
  actor.detail.attempts = attempts;
  actor.detail.bin = issuer.bin;
  let at = burstAt;
  for (let index = 0; index < attempts; index += 1) {
    const last = index === attempts - 1;
    world.traffic(at, () => {
      const approved = random.chance(0.12);
      const declineCode = approved
        ? undefined
        : random.weighted([['INCORRECT_CVC', 30], ['INVALID_CARD_NUMBER', 25], ['EXPIRED_CARD', 15], ['DO_NOT_HONOR', 20], ['INSUFFICIENT_FUNDS', 10]] as const);
      kit.chargeback(
        commerce.pay(random, {
          account: random.pick(members),
          device,
          ipAddress: random.chance(0.8) ? ip : ipAddress(random, ipPrefixes),
          card: kit.stolenCard([issuer]),
          category: categoryNamed(random.pick(['gift-cards', 'food'])),
          amountMinor: random.int(100, 300),
          shipTo: home,
          supplier: null,
          behaviour: { threeDs: 'none', ...(declineCode ? { declineCode } : {}), avs: { postalCode: 'NOT_CHECKED', street: 'NOT_CHECKED' }, cvv: declineCode === 'INCORRECT_CVC' ? 'FAIL' : 'PASS' },
          fraud: actor,
        }),
        0.3,
      );
      if (last) kit.labelLater(() => actor.customerIds, 0.95, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Card testing: burst of small declined payments.', Math.min(5, random.logNormal(0.8, 0.5)) * DAY_MS);
    });
    at += random.int(4, 40) * 1000;
  }
};

/** Promo abuse: one person opening account after account to use the welcome voucher again, same device, card and address. */
const promoAbuse: Starter = (commerce, random, actor, market, accounts) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const person = personName(random, market);
  const home = address(random, market);
  const device = kit.genuineLookingDevice();
  const secondDevice = random.chance(0.4) ? kit.genuineLookingDevice() : device;
  const cards = [commerce.newCard(random, person, home)];
  if (random.chance(0.4)) cards.push(commerce.newCard(random, person, home));
  const voucher = welcomeVoucher(market.currency);
  const base = `${person.givenName}.${person.familyName}`.normalize('NFD').replace(/[^A-Za-z.]/g, '').toLowerCase();
  actor.detail.accounts = accounts;
  let at = world.now;
  const ids: string[] = [];
  for (let index = 0; index < accounts; index += 1) {
    world.traffic(at, () => {
      const account = kit.account(() => random.pick([`${base}+${index + 1}@gmail.com`, `${base.replace('.', '')}${index + 1}@outlook.com`, `${base}.${random.digits(2)}@gmail.com`]));
      account.address = home;
      const used = index % 2 === 0 ? device : secondDevice;
      const ip = random.chance(0.7) ? used.homeIp : ipAddress(random, HOSTING_IP_PREFIXES);
      kit.signUp(account, used, ip, false);
      ids.push(account.customerId);
      world.traffic(world.now + random.int(2, 20) * MINUTE_MS, () => {
        commerce.redeemVoucher(account, voucher, actor);
        const card = random.pick(cards);
        actor.instrumentIds.add(card.instrumentId);
        commerce.pay(random, {
          account,
          device: used,
          ipAddress: ip,
          card,
          category: categoryNamed('food'),
          amountMinor: random.int(1100, 2400),
          shipTo: home,
          behaviour: genuineBehaviour(random, 1500, true),
        });
      });
    });
    at += random.between(2, 36) * HOUR_MS;
  }
  // Found out once the accounts pile up on one device and address: after the last of them.
  const lastAccountIn = Math.min(at, world.trafficEnd) - world.now;
  kit.labelLater(() => ids, 0.8, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Promotion abuse: one person, many accounts for the welcome voucher.', lastAccountIn + random.between(3, 10) * DAY_MS);
};

/** Referral abuse: a referrer and fake friends on an emulator, each "friend" redeeming the referrer's code. */
const referralAbuse: Starter = (commerce, random, actor, market, accounts) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const device = kit.fraudDevice(market.ipPrefixes);
  const referrer = kit.account((given, family) => kit.plausibleEmail(given, family));
  const ip = device.homeIp;
  kit.signUp(referrer, device, ip, false);
  const code = `REF-${referrer.givenName.normalize('NFD').replace(/[^A-Za-z]/g, '').toUpperCase()}${random.digits(4)}`;
  const voucher = { code, type: 'REFERRAL', value: 1000, currency: market.currency };
  const prepaid = FOREIGN_ISSUERS.filter((issuer) => issuer.prepaid);
  const cards = Array.from({ length: random.int(1, 2) }, () => commerce.newCard(random, personName(random, market), referrer.address, prepaid));
  actor.detail.referralCode = code;
  const ids = [referrer.customerId];
  let at = world.now + random.between(3, 24) * HOUR_MS;
  world.traffic(at, () => {
    world.emit(world.now, '/v2/voucher', voucherRequest(world.now, { code, type: 'REFERRAL', value: 1000, currency: market.currency, expiry: world.now + 90 * DAY_MS, referrerId: referrer.customerId, referralValue: 1000 }));
    actor.acted(world.now);
    actor.voucherCodes.add(code);
  });
  for (let index = 1; index < accounts; index += 1) {
    at += random.between(1, 20) * HOUR_MS;
    world.traffic(at, () => {
      const friend = kit.account(() => kit.disposableEmail());
      const friendIp = random.chance(0.5) ? ip : ipAddress(random, HOSTING_IP_PREFIXES);
      kit.signUp(friend, device, friendIp, true);
      ids.push(friend.customerId);
      world.traffic(world.now + random.int(3, 30) * MINUTE_MS, () => {
        commerce.redeemVoucher(friend, voucher, actor);
        const card = random.pick(cards);
        actor.instrumentIds.add(card.instrumentId);
        commerce.pay(random, {
          account: friend,
          device,
          ipAddress: friendIp,
          card,
          category: categoryNamed('food'),
          amountMinor: random.int(1000, 1800),
          shipTo: friend.address,
          behaviour: { threeDs: 'none', avs: { postalCode: 'NOT_CHECKED', street: 'NOT_CHECKED' }, cvv: 'PASS' },
        });
      });
    });
  }
  const lastFriendIn = Math.min(at, world.trafficEnd) - world.now;
  kit.labelLater(() => ids, 0.8, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Referral abuse: fake friends on one device.', lastFriendIn + random.between(3, 10) * DAY_MS);
};

/** Serial refund abuser: a real customer with its own card who asks for most of its money back. */
const refundAbuse: Starter = (commerce, random, actor, market) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const account = kit.account((given, family) => kit.plausibleEmail(given, family));
  const device = kit.genuineLookingDevice();
  const card = commerce.newCard(random, account, account.address);
  account.cards.push(card);
  kit.signUp(account, device, device.homeIp, false);
  let refunds = 0;
  let labelled = false;
  const threshold = random.int(3, 5);
  const session = () => {
    const order = commerce.pay(random, {
      account,
      device,
      ipAddress: device.homeIp,
      card,
      category: categoryNamed(random.weighted([['fashion', 50], ['electronics', 30], ['food', 20]] as const)),
      amountMinor: basketMinor(random, 90, 0.5),
      shipTo: account.address,
      behaviour: genuineBehaviour(random, 5000, true),
    });
    if (order.approved && random.chance(0.75)) {
      world.traffic(world.now + random.between(1, 3) * DAY_MS, () => {
        commerce.refund(random, account, order, device, device.homeIp, random.pick(['item_not_received', 'damaged', 'empty_box']), actor, random.chance(0.15) ? 1.2 : 1);
        refunds += 1;
        if (refunds >= threshold && !labelled) {
          labelled = true;
          if (random.chance(0.85)) commerce.labelCustomerLater(world.now + random.between(2, 8) * DAY_MS, account.customerId, 'REFUND_ABUSE', 'REFUND_ABUSE', `Serial refunds: ${refunds} claims in weeks.`, random);
        }
      });
    }
    world.traffic(world.now + random.between(1, 3) * DAY_MS, session);
  };
  world.traffic(world.now + random.int(10, 120) * MINUTE_MS, session);
};

/** Fake suppliers: sign up unverified, get fake orders paid with stolen cards by colluding customers, cash out daily. */
const fakeSupplier: Starter = (commerce, random, actor, market, colluders) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const ipPrefixes = market.ipPrefixes;
  const device = random.chance(0.5) ? kit.fraudDevice(ipPrefixes) : kit.genuineLookingDevice(ipPrefixes);
  const sharedPayoutCard = commerce.newCard(random, personName(random, market), address(random, market), FOREIGN_ISSUERS.filter((issuer) => issuer.prepaid));
  sharedPayoutCard.virtual = true;
  const suppliers = Array.from({ length: random.int(1, 2) }, () => {
    const supplier = commerce.newSupplier(random, market, random.chance(0.5) ? 'courier' : 'seller', world.now, () => device);
    supplier.identityVerified = false;
    supplier.payoutCard = sharedPayoutCard;
    actor.supplierIds.add(supplier.supplierId);
    return supplier;
  });
  actor.instrumentIds.add(sharedPayoutCard.instrumentId);
  actor.deviceIds.add(device.deviceId);
  for (const supplier of suppliers) commerce.announceSupplier(supplier, random, true);
  const cards = Array.from({ length: random.int(3, 6) }, () => kit.stolenCard());
  const customerIds: string[] = [];
  const activeDays = random.int(7, 14);
  const stopAt = world.now + activeDays * DAY_MS;
  actor.detail.activeDays = activeDays;
  for (let index = 0; index < colluders; index += 1) {
    world.traffic(world.now + random.between(2, 48) * HOUR_MS, () => {
      const account = kit.account((given, family) => kit.plausibleEmail(given, family));
      const ip = random.chance(0.6) ? device.homeIp : ipAddress(random, HOSTING_IP_PREFIXES);
      kit.signUp(account, device, ip, false);
      customerIds.push(account.customerId);
      const shop = () => {
        if (world.now > stopAt) return;
        const supplier = random.pick(suppliers);
        kit.chargeback(
          commerce.pay(random, {
            account,
            device,
            ipAddress: ip,
            card: random.pick(cards),
            category: supplier.type === 'courier' ? categoryNamed('groceries') : categoryNamed('electronics'),
            amountMinor: basketMinor(random, 180, 0.4),
            shipTo: account.address,
            supplier,
            behaviour: stolenCardBehaviour(random, 0.15),
            fraud: actor,
          }),
          0.9,
        );
        world.traffic(world.now + random.between(4, 36) * HOUR_MS, shop);
      };
      shop();
    });
  }
  for (const supplier of suppliers) {
    const cashOut = () => {
      commerce.payout(supplier, 'DAILY', 'SUPPLIER', random.chance(0.5) ? `${random.chars(8)}@proton.me` : supplier.email, actor);
      if (world.now < stopAt) world.traffic(world.now + random.between(20, 30) * HOUR_MS, cashOut);
    };
    world.traffic(world.now + random.between(20, 30) * HOUR_MS, cashOut);
  }
  // The back office looks once the suppliers went quiet (or the traffic ended): days after the first chargeback.
  world.later(Math.min(stopAt, world.trafficEnd), () => {
    if (!random.chance(0.9)) return;
    const at = (kit.firstChargeback ?? world.now) + random.between(2, 8) * DAY_MS;
    for (const id of actor.supplierIds) commerce.labelSupplierLater(at, id, 'FRAUDULENT', 'Fake supplier: paid out on fake orders with stolen cards.', random);
    for (const id of customerIds) commerce.labelCustomerLater(at + HOUR_MS, id, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Colluded with a fake supplier.', random);
  });
};

/**
 * Drifting fraud: stolen-card fraud whose tactics move as the weeks pass (the merchant's
 * defences adapt, so do the fraudsters): from new accounts on disposable e-mails, proxies,
 * emulators and foreign cards buying electronics, to aged accounts with real-looking details on
 * residential addresses, domestic phished cards passing 3-D Secure, buying groceries.
 */
const driftingFraud: Starter = (commerce, random, actor, market) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const phase = Math.min(1, Math.max(0, (world.now - world.start) / Math.max(1, world.trafficEnd - world.start)));
  const tactics = {
    agedAccount: random.chance(phase),
    residentialIp: random.chance(phase),
    mobileDevice: random.chance(phase),
    domesticCard: random.chance(phase),
    lowValue: random.chance(phase),
    threeDsPassed: random.chance(phase * 0.8),
    realisticEmail: random.chance(phase),
  };
  actor.detail.phase = Math.round(phase * 1000) / 1000;
  actor.detail.tactics = tactics;
  const ipPrefixes = tactics.residentialIp ? market.ipPrefixes : kit.riskyIpPrefixes();
  const device = tactics.mobileDevice ? kit.genuineLookingDevice(ipPrefixes) : kit.fraudDevice(ipPrefixes);
  const account = kit.account((given, family) => (tactics.realisticEmail ? kit.plausibleEmail(given, family) : kit.disposableEmail()));
  kit.signUp(account, device, device.homeIp, !tactics.realisticEmail);
  const cards = Array.from({ length: random.int(1, 3) }, () => kit.stolenCard(tactics.domesticCard ? issuersOf(market.country) : FOREIGN_ISSUERS));
  let at = world.now + (tactics.agedAccount ? random.between(3, 10) * DAY_MS : random.int(10, 60) * MINUTE_MS);
  if (tactics.agedAccount) {
    // A small, clean order first, to look like a customer.
    world.traffic(world.now + random.between(1, 2) * DAY_MS, () =>
      commerce.pay(random, {
        account,
        device,
        ipAddress: device.homeIp,
        card: commerce.newCard(random, account, account.address, issuersOf(market.country)),
        category: categoryNamed('food'),
        amountMinor: random.int(1200, 2500),
        shipTo: account.address,
        behaviour: genuineBehaviour(random, 1500, false),
      }),
    );
  }
  const count = random.int(2, 4);
  for (let index = 0; index < count; index += 1) {
    const first = index === 0;
    world.traffic(at, () => {
      const category = tactics.lowValue ? categoryNamed(random.pick(['groceries', 'food'])) : categoryNamed(random.pick(['electronics', 'gift-cards']));
      const behaviour: PaymentBehaviour = tactics.threeDsPassed
        ? { threeDs: 'frictionless', avs: { postalCode: 'STRONG_MATCH', street: 'PARTIAL_MATCH' }, cvv: 'PASS' }
        : stolenCardBehaviour(random, 0.2);
      kit.chargeback(
        commerce.pay(random, {
          account,
          device,
          ipAddress: device.homeIp,
          card: random.pick(cards),
          category,
          amountMinor: tactics.lowValue ? basketMinor(random, 70, 0.4) : basketMinor(random, 300, 0.5),
          shipTo: account.address,
          behaviour,
          fraud: actor,
        }),
        0.85,
      );
      if (first) kit.labelLater(() => [account.customerId], 0.85, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Stolen cards (evolving tactics).');
    });
    at += random.between(1, 24) * HOUR_MS;
  }
};

export const FRAUD_STARTERS: Record<FraudKind, Starter> = {
  'stolen-card': stolenCardRing,
  'account-takeover': accountTakeover,
  'card-testing': cardTesting,
  'promo-abuse': promoAbuse,
  'referral-abuse': referralAbuse,
  'refund-abuse': refundAbuse,
  'fake-supplier': fakeSupplier,
  'drifting-fraud': driftingFraud,
};
