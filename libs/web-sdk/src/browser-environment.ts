import type { ClientEnvironment } from './client';
import { browserFacts, describeDevice } from './device-info';
import { httpTransport } from './transport';

/** Storage that may be absent or throw on access (sandboxed frames, disabled storage). */
function storageOf(window: Window, name: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return window[name] ?? undefined;
  } catch {
    return undefined;
  }
}

/** The running browser as a client environment. */
export function browserEnvironment(window: Window, options: { publishableKey: string; baseUrl: string }): ClientEnvironment {
  const { crypto, navigator } = window;
  if (!crypto?.subtle) throw new Error('Ringfence.init: WebCrypto is unavailable (the page must be served over HTTPS or from localhost)');
  return {
    crypto,
    transport: httpTransport({
      baseUrl: options.baseUrl,
      publishableKey: options.publishableKey,
      fetch: window.fetch.bind(window),
      sendBeacon: typeof navigator.sendBeacon === 'function' ? (url, data) => navigator.sendBeacon(url, data) : undefined,
    }),
    stores: { cookies: window.document, localStorage: storageOf(window, 'localStorage'), sessionStorage: storageOf(window, 'sessionStorage'), secure: window.location.protocol === 'https:' },
    describeDevice: () => describeDevice(crypto.subtle, browserFacts(window)),
    now: () => Date.now(),
    window,
    setTimeout: (callback, milliseconds) => window.setTimeout(callback, milliseconds),
    onError: (error) => console.warn(error instanceof Error ? error.message : error),
  };
}
