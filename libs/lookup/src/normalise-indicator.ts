import { isIP } from 'node:net';
import { AppError } from '@ringfence/platform';
import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import { LRUCache } from 'lru-cache';
import { ALPHA3_TO_ALPHA2 } from './country-codes';

const ALPHA2_CODES = new Set(Object.values(ALPHA3_TO_ALPHA2));
const CALLING_CODE = /^\+?([0-9]{1,3})$/;
// How the URL parser prints an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`).
const IPV4_MAPPED_IPV6 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** ADR-0004/ADR-0007: e-mail addresses match trimmed and lower-cased. */
export function normaliseEmail(address: string): string {
  return address.trim().toLowerCase();
}

/** How a telephone number's country is given: nothing, a country or a calling code. */
type PhoneCountry = { country: CountryCode } | { callingCode: string } | null;

/**
 * `countryCode` as the lookup telephone object sends it: ISO 3166 alpha-3 (as the other payloads
 * carry countries) or alpha-2, or a calling code in digits (`44`, `+44`).
 * @throws AppError VALIDATION_FAILED naming `field` for a code that is none of these.
 */
export function parsePhoneCountry(countryCode: string | undefined, field: string): PhoneCountry {
  const code = countryCode?.trim();
  if (code === undefined || code === '') return null;
  const callingCode = CALLING_CODE.exec(code)?.[1];
  if (callingCode !== undefined) return { callingCode };
  const upper = code.toUpperCase();
  const alpha2 = upper.length === 3 ? ALPHA3_TO_ALPHA2[upper] : ALPHA2_CODES.has(upper) ? upper : undefined;
  if (alpha2 === undefined) {
    throw new AppError('VALIDATION_FAILED', `${field}: must be an ISO 3166 alpha-3 or alpha-2 country code, or a calling code in digits`);
  }
  // A few territories (Antarctica, Bouvet Island, …) have no numbering plan of their own; their
  // numbers can still be read when written internationally.
  return isSupportedCountry(alpha2) ? { country: alpha2 } : null;
}

/**
 * A telephone number as E.164 (`+447700900123`), read with its country when one is given,
 * otherwise only when written internationally (`+44…`). A number that cannot be read as a
 * possible number of any plan is kept as its raw digits, so the same input always matches
 * itself. Possibility (length and calling code) is checked rather than validity: numbering plans
 * change faster than the metadata shipped with a release.
 */
export function normaliseTelephone(number: string, countryCode?: string, field = 'telephone.countryCode'): string {
  const key = `${countryCode ?? ''}\u0000${number}`;
  const known = normalisedTelephones.get(key);
  if (known !== undefined) return known;
  const country = parsePhoneCountry(countryCode, field);
  const options = country === null ? {} : 'country' in country ? { defaultCountry: country.country } : { defaultCallingCode: country.callingCode };
  const parsed = parsePhoneNumberFromString(number, options);
  const normalised = parsed?.isPossible() ? parsed.number : number.replace(/[^0-9]/g, '');
  normalisedTelephones.set(key, normalised);
  return normalised;
}

/**
 * Recently normalised numbers, by country code and number as given. The same customer's number
 * is read by the graph, by scoring's lookup question and by its velocity counters at each of its
 * checkpoints, and parsing one costs tens of microseconds. Only numbers that normalised are kept
 * (a country code that is refused throws before).
 */
const normalisedTelephones = new LRUCache<string, string>({ max: 20_000 });

/**
 * An IP address in its canonical text form: dotted decimal for IPv4 (IPv4-mapped IPv6 addresses
 * such as `::ffff:203.0.113.7` become the IPv4 address, as they name the same host), RFC 5952
 * for IPv6 (lower case, zeros compressed). Null when the text is not an IP address; zone ids
 * (`fe80::1%eth0`) are refused, as they mean nothing outside the sender's host.
 */
export function canonicalIpAddress(address: string): string | null {
  const text = address.trim();
  switch (isIP(text)) {
    case 4:
      return text;
    case 6: {
      if (text.includes('%')) return null;
      // The WHATWG URL parser prints IPv6 hosts in the RFC 5952 form.
      const canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
      const mapped = IPV4_MAPPED_IPV6.exec(canonical);
      return mapped ? ipv4FromWords(mapped[1], mapped[2]) : canonical;
    }
    default:
      return null;
  }
}

function ipv4FromWords(high: string, low: string): string {
  const value = (parseInt(high, 16) << 16) | parseInt(low, 16);
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
}

/**
 * @throws AppError VALIDATION_FAILED naming `field` when the text is not an IP address.
 */
export function normaliseIpAddress(address: string, field = 'ipAddress'): string {
  const canonical = canonicalIpAddress(address);
  if (canonical === null) throw new AppError('VALIDATION_FAILED', `${field}: must be an IPv4 or IPv6 address`);
  return canonical;
}

/** Payment identifiers (instrumentId, payerId, bankId) are opaque: only surrounding spaces go. */
export function normalisePaymentIdentifier(identifier: string): string {
  return identifier.trim();
}
