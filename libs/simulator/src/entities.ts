import {
  type CategoryProfile,
  type DeviceProfile,
  EMAIL_DOMAINS,
  FAMILY_NAMES,
  GIVEN_NAMES,
  type Issuer,
  type Market,
  STREETS,
  ipAddress,
} from './catalogue';
import type { SeededRandom } from './seeded-random';

/** The simulated marketplace's own view of its customers, suppliers, devices, cards and orders. */

export interface Address {
  street1: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  latitude: number;
  longitude: number;
}

export interface SimDevice {
  deviceId: string;
  profile: DeviceProfile;
  language: string;
  /** The address it usually connects from (home broadband, or the fraudster's proxy). */
  homeIp: string;
}

export interface Card {
  paymentMethodId: string;
  instrumentId: string;
  issuer: Issuer;
  lastFour: string;
  expiryMonth: number;
  expiryYear: number;
  nameOnCard: string;
  billingAddress: Address;
  registrationTime: number;
  virtual?: boolean;
}

export interface CustomerAccount {
  customerId: string;
  market: Market;
  givenName: string;
  familyName: string;
  email: string;
  telephone: string;
  registrationTime: number;
  emailVerifiedTime?: number;
  telephoneVerifiedTime?: number;
  address: Address;
  devices: SimDevice[];
  cards: Card[];
  /** Approved orders so far (the orders themselves live only in the tasks that refer back to them). */
  orderCount: number;
  /** Set once an analyst locked the account (after a takeover): its owner stops using it. */
  lockedAt?: number;
}

export interface OrderRecord {
  orderId: string;
  transactionId: string;
  creationTime: number;
  category: CategoryProfile;
  amountMinor: number;
  currency: string;
  items: Array<{ sku: string; name: string; price: number; quantity: number }>;
  card: Card;
  shipTo: Address;
  supplierId?: string;
  supplierType?: string;
  supplierFeeMinor: number;
  approved: boolean;
  gatewayReference: string;
  arn: string;
  gateway: string;
  liabilityShifted: boolean;
  refunded?: boolean;
}

export interface SupplierAccount {
  supplierId: string;
  market: Market;
  type: 'courier' | 'seller';
  name: string;
  email: string;
  telephone: string;
  registrationTime: number;
  homeAddress: Address;
  device: SimDevice;
  payoutCard: Card;
  groupId: string;
  groupName: string;
  identityVerified: boolean;
  /** Earnings (minor units of the market's currency) not paid out yet. */
  pendingEarningsMinor: number;
  periodStart: number;
}

const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

/** Real people's e-mail addresses are unique: the n-th person with the same local part gets a number. */
export class EmailBook {
  private readonly seen = new Map<string, number>();

  address(random: SeededRandom, givenName: string, familyName: string): string {
    const given = plain(givenName);
    const family = plain(familyName);
    const local = random.weighted([
      [`${given}.${family}`, 45],
      [`${given[0]}${family}`, 20],
      [`${given}_${family}`, 10],
      [`${family}.${given}`, 10],
      [`${given}${family}${random.int(70, 99)}`, 15],
    ] as const);
    const domain = random.weighted(EMAIL_DOMAINS);
    const key = `${local}@${domain}`;
    const count = this.seen.get(key) ?? 0;
    this.seen.set(key, count + 1);
    return count === 0 ? key : `${local}${count}@${domain}`;
  }
}

export function personName(random: SeededRandom, market: Market): { givenName: string; familyName: string } {
  return { givenName: random.pick(GIVEN_NAMES[market.country] ?? ['Alex']), familyName: random.pick(FAMILY_NAMES[market.country] ?? ['Smith']) };
}

export function address(random: SeededRandom, market: Market): Address {
  const place = random.pick(market.cities);
  const postalCode =
    market.country === 'GBR' ? `${place.postalPrefix}${random.int(1, 20)} ${random.int(1, 9)}${random.chars(2, 'ABDEFGHJLNPQRSTUWXYZ')}` : `${place.postalPrefix}${random.digits(2)}`;
  return {
    street1: `${random.int(1, 180)} ${random.pick(STREETS)}`,
    city: place.city,
    region: place.region,
    postalCode,
    country: market.country,
    latitude: Math.round((place.latitude + random.between(-0.08, 0.08)) * 10_000) / 10_000,
    longitude: Math.round((place.longitude + random.between(-0.08, 0.08)) * 10_000) / 10_000,
  };
}

export function telephone(random: SeededRandom, market: Market): string {
  return `${market.phone.prefix}${random.digits(market.phone.digits)}`;
}

export function device(random: SeededRandom, profile: DeviceProfile, language: string, ipPrefixes: readonly string[]): SimDevice {
  return { deviceId: `dev-${random.hex(16)}`, profile, language, homeIp: ipAddress(random, ipPrefixes) };
}

export function card(
  random: SeededRandom,
  issuer: Issuer,
  nameOnCard: string,
  billingAddress: Address,
  registrationTime: number,
  paymentMethodId: string,
  expiryYearFrom: number,
): Card {
  return {
    paymentMethodId,
    instrumentId: `ins_${random.hex(20)}`,
    issuer,
    lastFour: random.digits(4),
    expiryMonth: random.int(1, 12),
    expiryYear: expiryYearFrom + random.int(0, 4),
    nameOnCard,
    billingAddress,
    registrationTime,
  };
}
