import { DEVICE_ID_COOKIE, DEVICE_ID_STORAGE_KEY, SESSION_ID_STORAGE_KEY, deviceIdentifier, newIdentifier, sessionIdentifier } from './device-identity';
import { webcrypto } from 'node:crypto';

const crypto = webcrypto as unknown as Crypto;

/** document.cookie's behaviour: reading lists name=value pairs, writing sets one (attributes kept aside). */
class FakeCookieJar {
  readonly values = new Map<string, string>();
  readonly written: string[] = [];
  get cookie(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  set cookie(text: string) {
    this.written.push(text);
    const [pair] = text.split(';');
    const [name, value] = pair.split('=');
    this.values.set(name, value);
  }
}

const storage = () => {
  const values = new Map<string, string>();
  return { values, getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value) };
};
const stores = () => ({ cookies: new FakeCookieJar(), localStorage: storage(), sessionStorage: storage(), secure: true });

describe('deviceIdentifier', () => {
  it('makes 128 random bits as 32 hex digits, kept in a first-party cookie (Secure on HTTPS, SameSite=Lax) and local storage', () => {
    const where = stores();
    const id = deviceIdentifier(where, crypto);

    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(where.cookies.values.get(DEVICE_ID_COOKIE)).toBe(id);
    expect(where.cookies.written[0]).toMatch(/; Path=\/; SameSite=Lax; Secure$/);
    expect(where.localStorage.values.get(DEVICE_ID_STORAGE_KEY)).toBe(id);
    expect(newIdentifier(crypto)).not.toBe(newIdentifier(crypto));
  });

  it('keeps the id across page loads, and restores it from local storage when cookies were cleared (and the other way)', () => {
    const where = stores();
    const id = deviceIdentifier(where, crypto);

    expect(deviceIdentifier(where, crypto)).toBe(id);
    where.cookies.values.clear();
    expect(deviceIdentifier(where, crypto)).toBe(id);
    expect(where.cookies.values.get(DEVICE_ID_COOKIE)).toBe(id);
    where.localStorage.values.clear();
    expect(deviceIdentifier(where, crypto)).toBe(id);
    expect(where.localStorage.values.get(DEVICE_ID_STORAGE_KEY)).toBe(id);
  });

  it('replaces a stored value it did not write, and works on without storage that throws', () => {
    const where = stores();
    where.cookies.values.set(DEVICE_ID_COOKIE, '"><script>');

    expect(deviceIdentifier(where, crypto)).toMatch(/^[0-9a-f]{32}$/);
    const throwing = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(deviceIdentifier({ localStorage: throwing, secure: false }, crypto)).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('sessionIdentifier', () => {
  it('keeps one session id per tab in session storage, distinct from the device id', () => {
    const where = stores();
    const session = sessionIdentifier(where, crypto);

    expect(session).toMatch(/^[0-9a-f]{32}$/);
    expect(where.sessionStorage.values.get(SESSION_ID_STORAGE_KEY)).toBe(session);
    expect(sessionIdentifier(where, crypto)).toBe(session);
    expect(sessionIdentifier(stores(), crypto)).not.toBe(session);
    expect(session).not.toBe(deviceIdentifier(where, crypto));
  });
});
