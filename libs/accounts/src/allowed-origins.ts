import type { Environment } from '@ringfence/contracts';
import type { AccountSettings } from './account';

/** The setting that holds each data set's browser origins (ADR-0015); the live data set's has the plain name, as callbacks' does. */
export const ALLOWED_ORIGINS_SETTINGS = {
  live: 'allowedOrigins',
  test: 'testAllowedOrigins',
} as const satisfies Record<Environment, keyof AccountSettings>;

/** Origins one data set may list. */
export const MAX_ALLOWED_ORIGINS = 50;
/** An origin's longest form: a scheme, a host name of at most 253 characters and a port. */
export const MAX_ORIGIN_LENGTH = 300;

export const ALLOWED_ORIGIN_RULE = 'must be an exact origin, scheme://host[:port] (such as https://shop.example), without a path, query or credentials';

/** The origins whose browsers may call the client endpoints with this data set's publishable key; none when unset. */
export function allowedOriginsOf(settings: AccountSettings, environment: Environment): readonly string[] {
  return settings[ALLOWED_ORIGINS_SETTINGS[environment]] ?? [];
}

/**
 * Why `origin` is not an origin as a browser sends it in `Origin` (`https://shop.example`,
 * `http://127.0.0.1:8080`: scheme, host, and a port only when it is not the scheme's default),
 * or null when it is one. Compared exactly, so a listed origin must be written as browsers write it.
 */
export function allowedOriginProblem(origin: unknown): string | null {
  if (typeof origin !== 'string' || origin.length > MAX_ORIGIN_LENGTH) return ALLOWED_ORIGIN_RULE;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return ALLOWED_ORIGIN_RULE;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return ALLOWED_ORIGIN_RULE;
  return parsed.origin === origin ? null : ALLOWED_ORIGIN_RULE;
}
