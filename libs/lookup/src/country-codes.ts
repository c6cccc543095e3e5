import { type TCountryCode, countries, getCountryData } from 'countries-list';

/**
 * Codes `countries-list` carries that ISO 3166-1 only reserves (Ascension Island, Tristan da
 * Cunha): not accepted as countries here.
 */
const RESERVED_ONLY: ReadonlySet<string> = new Set(['AC', 'TA']);

/**
 * ISO 3166-1 alpha-3 → alpha-2, from `countries-list` (which also carries Kosovo's user-assigned
 * `XKX` → `XK`, used by payment and telephony data). Payloads carry alpha-3 country codes
 * (specification §2.1) while libphonenumber-js wants alpha-2.
 */
export const ALPHA3_TO_ALPHA2: Readonly<Record<string, string>> = Object.fromEntries(
  (Object.keys(countries) as TCountryCode[]).filter((alpha2) => !RESERVED_ONLY.has(alpha2)).map((alpha2) => [getCountryData(alpha2).iso3, alpha2]),
);
