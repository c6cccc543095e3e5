import { randomBytes, toHex } from './bytes';

/** Where the device id is kept, first-party: a cookie and local storage of the merchant's site. */
export const DEVICE_ID_COOKIE = 'rf_device_id';
export const DEVICE_ID_STORAGE_KEY = 'ringfence.deviceId';
/** The tab's session: session storage lives as long as the tab, across reloads and pages. */
export const SESSION_ID_STORAGE_KEY = 'ringfence.sessionId';
/** 400 days, the longest a browser keeps a cookie (Chrome caps Max-Age there). */
const COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
/** What this SDK writes: 128 random bits in hex. Anything else found in storage is not ours. */
const ID_PATTERN = /^[0-9a-f]{32}$/;

/** The part of `document` that holds cookies: reading gives `a=1; b=2`, writing sets one. */
export interface CookieJar {
  cookie: string;
}

/** The part of the Web Storage API used here; a storage that throws (blocked, full) is skipped. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface IdentityStores {
  cookies?: CookieJar;
  localStorage?: KeyValueStorage;
  sessionStorage?: KeyValueStorage;
  /** Whether the page is served over HTTPS (the cookie is then `Secure`). */
  secure: boolean;
}

/** A new identifier: 128 bits from the cryptographic generator, as 32 hex digits. */
export function newIdentifier(crypto: Pick<Crypto, 'getRandomValues'>): string {
  return toHex(randomBytes(crypto, 16));
}

function readCookie(jar: CookieJar, name: string): string | undefined {
  for (const pair of jar.cookie.split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function attempt<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch {
    // Storage can be disabled or full (private modes, quotas): the id then lives less long.
    return undefined;
  }
}

function valid(id: string | null | undefined): string | undefined {
  return id && ID_PATTERN.test(id) ? id : undefined;
}

/**
 * The device id: the one kept in the cookie or, when the cookie was cleared, local storage; a
 * new one otherwise. Written back to both, so either survives the other being cleared.
 */
export function deviceIdentifier(stores: IdentityStores, crypto: Pick<Crypto, 'getRandomValues'>): string {
  const { cookies, localStorage } = stores;
  const kept = valid(cookies && attempt(() => readCookie(cookies, DEVICE_ID_COOKIE))) ?? valid(localStorage && attempt(() => localStorage.getItem(DEVICE_ID_STORAGE_KEY)));
  const id = kept ?? newIdentifier(crypto);
  if (cookies) {
    const attributes = `Max-Age=${COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${stores.secure ? '; Secure' : ''}`;
    attempt(() => (cookies.cookie = `${DEVICE_ID_COOKIE}=${id}; ${attributes}`));
  }
  attempt(() => localStorage?.setItem(DEVICE_ID_STORAGE_KEY, id));
  return id;
}

/** The tab's session id: kept in session storage, so it spans the tab's pages and reloads. */
export function sessionIdentifier(stores: IdentityStores, crypto: Pick<Crypto, 'getRandomValues'>): string {
  const { sessionStorage } = stores;
  const id = valid(sessionStorage && attempt(() => sessionStorage.getItem(SESSION_ID_STORAGE_KEY))) ?? newIdentifier(crypto);
  attempt(() => sessionStorage?.setItem(SESSION_ID_STORAGE_KEY, id));
  return id;
}
