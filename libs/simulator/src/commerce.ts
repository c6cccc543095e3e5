import { createHash } from 'node:crypto';
import { type CategoryProfile, type Market, PRIMARY_GATEWAY, SECONDARY_GATEWAY, WEAK_PASSWORDS, issuersOf } from './catalogue';
import {
  type Address,
  type Card,
  type CustomerAccount,
  type OrderRecord,
  type SimDevice,
  type SupplierAccount,
  address,
  card,
  device,
  personName,
  telephone,
} from './entities';
import type { ClientSdkTraffic } from './client-sdk/client-sdk-traffic';
import { ANALYSTS, labelBody, payoutRequest, refundRequest, voucherRedemptionRequest } from './payloads/order-payloads';
import { type Body, supplierRegistrationRequest, supplierRequest } from './payloads/party-payloads';
import { type AuthorisationOutcome, type PaymentDetails, dispute, pspAfterAuth, pspBeforeAuth, pspCapture } from './payloads/psp-payloads';
import type { SeededRandom } from './seeded-random';
import { DAY_MS, type FraudActor, HOUR_MS, MINUTE_MS, type Marketplace, type World } from './world';

/** How a payment goes at the processor: 3-D Secure, the authorisation, the address and CVV checks. */
export interface PaymentBehaviour {
  threeDs: 'none' | 'frictionless' | 'challenge-pass' | 'challenge-fail' | 'attempted';
  /** A decline code when the issuer declines; absent when it approves. */
  declineCode?: string;
  avs: { postalCode: string; street: string };
  cvv: string;
}

export interface PaymentRequest {
  account: CustomerAccount;
  device: SimDevice;
  ipAddress: string;
  card: Card;
  category: CategoryProfile;
  amountMinor: number;
  shipTo: Address;
  behaviour: PaymentBehaviour;
  /** The supplier who fulfils it (couriers for food and groceries, sellers otherwise); picked when absent. */
  supplier?: SupplierAccount | null;
  fraud?: FraudActor;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const WEAK_PASSWORD_HASHES = WEAK_PASSWORDS.map(sha256);

/** The shared operations of the marketplace: payments, refunds, disputes, payouts, labels. */
export class Commerce {
  readonly world: World;

  constructor(
    readonly marketplace: Marketplace,
    /** The web SDK's batches before each payment; absent: no client events (`sdkTraffic: false`). */
    private readonly sdk?: ClientSdkTraffic,
  ) {
    this.world = marketplace.world;
  }

  passwordHash(random: SeededRandom, weak: boolean): string {
    return weak ? random.pick(WEAK_PASSWORD_HASHES) : random.hex(64);
  }

  newCard(random: SeededRandom, account: { givenName: string; familyName: string }, billing: Address, issuers = issuersOf(billing.country)): Card {
    const year = new Date(this.world.now).getUTCFullYear();
    return card(random, random.pick(issuers), `${account.givenName} ${account.familyName}`, billing, this.world.now, this.world.id('pm'), year + 1);
  }

  /** A new customer account (not yet announced to the API). */
  newAccount(random: SeededRandom, market: Market, email: (given: string, family: string) => string, registrationTime: number): CustomerAccount {
    const { givenName, familyName } = personName(random, market);
    this.world.customersCreated += 1;
    return {
      customerId: this.world.id('cus'),
      market,
      givenName,
      familyName,
      email: email(givenName, familyName),
      telephone: telephone(random, market),
      registrationTime,
      address: address(random, market),
      devices: [],
      cards: [],
      orderCount: 0,
    };
  }

  pickSupplier(random: SeededRandom, country: string, category: CategoryProfile): SupplierAccount | undefined {
    const pool = this.marketplace.suppliersOf(country, category.supplierType);
    return pool.length === 0 ? undefined : random.pick(pool);
  }

  /**
   * A card payment: before-authorisation checkpoint now, 3-D Secure if any, the authorisation
   * result seconds later (after-authorisation checkpoint), and the capture when the order is
   * fulfilled. Returns the order, approved or not.
   */
  pay(random: SeededRandom, request: PaymentRequest): OrderRecord {
    const world = this.world;
    const start = world.now;
    const { account, behaviour, category } = request;
    const supplier = request.supplier === null ? undefined : (request.supplier ?? this.pickSupplier(random, account.market.country, category));
    const itemCount = category.category === 'food' || category.category === 'groceries' ? random.int(1, 4) : random.int(1, 2);
    const items = splitItems(random, category, request.amountMinor, itemCount);
    const gateway = random.weighted([
      [PRIMARY_GATEWAY.gateway, 70],
      [SECONDARY_GATEWAY.gateway, 30],
    ] as const);
    const { threeds, authenticationEnd } = authenticate(random, behaviour.threeDs, start);
    const authenticationFailed = behaviour.threeDs === 'challenge-fail';
    const approved = !authenticationFailed && behaviour.declineCode === undefined;
    const order: OrderRecord = {
      orderId: world.id('ord'),
      transactionId: world.id('tx'),
      creationTime: start,
      category,
      amountMinor: request.amountMinor,
      currency: account.market.currency,
      items,
      card: request.card,
      shipTo: request.shipTo,
      supplierId: supplier?.supplierId,
      supplierType: supplier?.type,
      supplierFeeMinor: Math.round(request.amountMinor * (category.supplierType === 'courier' ? 0.12 : 0.85)),
      approved,
      gatewayReference: random.digits(16),
      arn: `7453${random.digits(19)}`,
      gateway,
      liabilityShifted: threeds !== undefined && threeds.liabilityShifted === true,
    };
    const details: PaymentDetails = { order, account, device: request.device, ipAddress: request.ipAddress };
    this.sdk?.beforePayment(start, { ...request, transactionId: order.transactionId });
    world.emit(start, '/psp/transaction', pspBeforeAuth(start, details), { checkpoint: 'pspBeforeAuth' });
    const outcome = authorisationOutcome(behaviour, approved, threeds);
    const authorisedAt = authenticationEnd + random.int(300, 1500);
    world.emit(authorisedAt, '/psp/transaction', pspAfterAuth(authorisedAt, details, outcome), { checkpoint: 'pspAfterAuth' });
    if (approved) {
      const capturedAt = authorisedAt + (category.supplierType === 'courier' ? random.int(20, 70) * MINUTE_MS : random.int(2, 30) * HOUR_MS);
      world.emit(capturedAt, '/psp/transaction', pspCapture(capturedAt, order));
      if (supplier) supplier.pendingEarningsMinor += order.supplierFeeMinor;
      account.orderCount += 1;
    }
    if (request.fraud) recordFraudulentPayment(request.fraud, request, order);
    return order;
  }

  redeemVoucher(account: CustomerAccount, voucher: { code: string; type: string; value: number; currency: string }, fraud?: FraudActor): void {
    const time = this.world.now;
    this.world.emit(time, '/v2/paymentmethod/voucher', voucherRedemptionRequest(time, account, { ...voucher, paymentMethodId: this.world.id('pm-vch') }), { score: 'true' });
    if (fraud) {
      fraud.acted(time);
      fraud.voucherCodes.add(voucher.code);
      fraud.customerIds.add(account.customerId);
    }
  }

  refund(random: SeededRandom, account: CustomerAccount, order: OrderRecord, device: SimDevice, ipAddress: string, reason: string, fraud?: FraudActor, amountFactor = 1): string {
    const time = this.world.now;
    const refundId = this.world.id('rfd');
    order.refunded = true;
    const amountMinor = Math.round(order.amountMinor * amountFactor);
    this.world.emit(
      time,
      '/v2/refund',
      refundRequest(time, { order, account, device, ipAddress }, { refundId, refundTransactionId: this.world.id('tx-rfd'), amountMinor, reason }),
    );
    if (fraud) {
      fraud.acted(time);
      fraud.refundIds.add(refundId);
      fraud.customerIds.add(account.customerId);
    }
    return refundId;
  }

  /**
   * The cardholder disputes the payment `delayMs` from now; the dispute is resolved `resolveAfterMs`
   * later with `outcome` (when that is still inside the horizon). Returns when it is filed.
   */
  disputeLater(order: OrderRecord, delayMs: number, reason: string, outcome: 'LOST' | 'WON', resolveAfterMs: number): number {
    const filedAt = Math.round(this.world.now + delayMs);
    const disputeId = this.world.id('dsp');
    this.world.later(filedAt, () => {
      this.world.emit(filedAt, '/psp/dispute', dispute(filedAt, order, disputeId, reason, filedAt));
      const resolvedAt = Math.round(filedAt + resolveAfterMs);
      this.world.later(resolvedAt, () => this.world.emit(resolvedAt, '/psp/dispute', dispute(resolvedAt, order, disputeId, reason, filedAt, outcome)));
    });
    return filedAt;
  }

  labelCustomerLater(time: number, customerId: string, category: 'PAYMENT_FRAUD' | 'REFUND_ABUSE', review: string, comment: string, random: SeededRandom): void {
    const reviewer = random.pick(ANALYSTS);
    this.world.later(time, () => this.world.emit(this.world.now, `/v2/customer/${encodeURIComponent(customerId)}/labels`, labelBody(category, review, reviewer, comment)));
  }

  labelSupplierLater(time: number, supplierId: string, review: string, comment: string, random: SeededRandom): void {
    const reviewer = random.pick(ANALYSTS);
    this.world.later(time, () => this.world.emit(this.world.now, `/v2/supplier/${encodeURIComponent(supplierId)}/labels`, labelBody('SUPPLIER_FRAUD', review, reviewer, comment)));
  }

  /** A supplier (courier or seller) that works for the marketplace and is paid weekly, or a fake one paid on demand. */
  newSupplier(random: SeededRandom, market: Market, type: 'courier' | 'seller', registrationTime: number, deviceOf: (random: SeededRandom) => SimDevice): SupplierAccount {
    const { givenName, familyName } = personName(random, market);
    const home = address(random, market);
    const name = type === 'seller' ? `${familyName} ${random.pick(['Trading', 'Goods', 'Store', '& Co', 'Retail'])}` : `${givenName} ${familyName}`;
    this.world.suppliersCreated += 1;
    const supplierId = this.world.id('sup');
    return {
      supplierId,
      market,
      type,
      name,
      email: `${supplierId}@partners.ringfence-market.example`,
      telephone: telephone(random, market),
      registrationTime,
      homeAddress: home,
      device: deviceOf(random),
      payoutCard: this.newCard(random, { givenName, familyName }, home),
      groupId: `grp-${market.country.toLowerCase()}-${type}`,
      groupName: `${market.country} ${type}s`,
      identityVerified: random.chance(0.92),
      pendingEarningsMinor: 0,
      periodStart: registrationTime,
    };
  }

  announceSupplier(supplier: SupplierAccount, random: SeededRandom, asRegistration: boolean): void {
    const time = this.world.now;
    if (asRegistration) this.world.emit(time, '/v2/registration', supplierRegistrationRequest(time, supplier, this.passwordHash(random, false)));
    const profileAt = time + (asRegistration ? random.int(5, 90) * MINUTE_MS : 0);
    this.world.emit(profileAt, '/v2/supplier', supplierRequest(profileAt, asRegistration ? 'supplier-onboarded' : 'supplier-sync', supplier));
  }

  /** Pays out what the supplier earned since its last payout, if anything. */
  payout(supplier: SupplierAccount, schedule: string, initiatedBy: string, notificationEmail = supplier.email, fraud?: FraudActor): void {
    if (supplier.pendingEarningsMinor <= 0) return;
    const time = this.world.now;
    const payoutId = this.world.id('pay');
    this.world.emit(time, '/v2/payout', payoutRequest(time, supplier, { payoutId, grossMinor: supplier.pendingEarningsMinor, schedule, initiatedBy, notificationEmail }));
    supplier.pendingEarningsMinor = 0;
    supplier.periodStart = time;
    if (fraud) {
      fraud.acted(time);
      fraud.payoutIds.add(payoutId);
      fraud.supplierIds.add(supplier.supplierId);
    }
  }

  /** Genuine suppliers: existing ones synced on the first day, a few new ones signing up; weekly payouts. */
  startGenuineSupplier(supplier: SupplierAccount, random: SeededRandom, asRegistration: boolean, firstAt: number): void {
    this.world.traffic(firstAt, () => {
      this.announceSupplier(supplier, random, asRegistration);
      this.marketplace.suppliersOf(supplier.market.country, supplier.type).push(supplier);
      const weekly = () => {
        this.payout(supplier, 'WEEKLY', 'SYSTEM');
        this.world.traffic(this.world.now + 7 * DAY_MS, weekly);
      };
      this.world.traffic(this.world.now + random.int(1, 7) * DAY_MS + random.int(0, 3) * HOUR_MS, weekly);
    });
  }

  deviceFor(random: SeededRandom, profile: SimDevice['profile'], market: Market, ipPrefixes = market.ipPrefixes): SimDevice {
    return device(random, profile, market.language, ipPrefixes);
  }
}

/** 3-D Secure when the payment uses it (its result and timing), and when authentication ends. */
function authenticate(random: SeededRandom, threeDs: PaymentBehaviour['threeDs'], start: number): { threeds?: Body; authenticationEnd: number } {
  let authenticationEnd = start + random.int(800, 2500);
  if (threeDs === 'none') return { authenticationEnd };
  const challenged = threeDs.startsWith('challenge');
  authenticationEnd = start + (challenged ? random.int(25_000, 120_000) : random.int(1_500, 4_000));
  const transStatus = { frictionless: 'Y', 'challenge-pass': 'Y', 'challenge-fail': 'N', attempted: 'A' }[threeDs];
  const threeds: Body = {
    version: '2.2.0',
    deviceChannel: '02',
    transStatus,
    ...(transStatus === 'N' ? { transStatusReason: '01' } : {}),
    liabilityShifted: transStatus !== 'N',
    requestorChallengeIndList: challenged ? ['04'] : [],
    startTime: start + 500,
    endTime: authenticationEnd,
  };
  return { threeds, authenticationEnd };
}

function authorisationOutcome(behaviour: PaymentBehaviour, approved: boolean, threeds: Body | undefined): AuthorisationOutcome {
  const authenticationFailed = behaviour.threeDs === 'challenge-fail';
  return {
    success: approved,
    ...(approved ? {} : { declineCode: authenticationFailed ? 'AUTHENTICATION_FAILED' : behaviour.declineCode }),
    avs: behaviour.avs,
    cvv: behaviour.cvv,
    ...(threeds ? { threeds } : {}),
  };
}

/** Credits a fraudulent payment to its actor's ground truth. */
function recordFraudulentPayment(fraud: FraudActor, request: PaymentRequest, order: OrderRecord): void {
  fraud.acted(order.creationTime);
  fraud.transactionIds.add(order.transactionId);
  fraud.instrumentIds.add(request.card.instrumentId);
  fraud.deviceIds.add(request.device.deviceId);
  fraud.customerIds.add(request.account.customerId);
}

function splitItems(random: SeededRandom, category: CategoryProfile, amountMinor: number, count: number): OrderRecord['items'] {
  const items: OrderRecord['items'] = [];
  let left = amountMinor;
  for (let index = 0; index < count; index += 1) {
    const price = index === count - 1 ? left : Math.max(1, Math.round((amountMinor / count) * random.between(0.6, 1.2)));
    if (price <= 0) break;
    left -= price;
    const name = random.pick(category.items);
    items.push({ sku: `SKU-${category.category.toUpperCase()}-${name.replace(/[^A-Za-z0-9]+/g, '-').toUpperCase()}`, name, price, quantity: 1 });
    if (left <= 0) break;
  }
  return items;
}

/** An amount in minor units, log-normally spread around the category's median, at least 1.00. */
export function basketMinor(random: SeededRandom, medianMajor: number, sigma: number): number {
  return Math.max(100, Math.round(random.logNormal(medianMajor, sigma) * 100));
}
