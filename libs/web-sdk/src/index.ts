/**
 * The Ringfence web SDK (ADR-0015): `Ringfence.init({publishableKey, baseUrl})`. Bundled by
 * bundle.mjs into the script the gateway serves at `/client/ringfence.js` (a global `Ringfence`)
 * and the ES module at `/client/ringfence.mjs` (these same exports).
 */
import { browserEnvironment } from './browser-environment';
import { type ClientOptions, RingfenceClient } from './client';

export { CIPHER_ALGORITHM, type CardDetails, type PaymentMethodCipher } from './card-cipher';
export type { ClientOptions, RingfenceClient, TrackProperties } from './client';
export type { DeviceReport } from './device-info';

/** This build's version, as the gateway serves it. */
export const version = '1.0.0';

export interface InitOptions extends ClientOptions {
  /** A publishable key (`pk_test_…` or `pk_live_…`); never a secret key. */
  publishableKey: string;
  /** Where the Ringfence API is, e.g. `https://fraud.example.com`. */
  baseUrl: string;
}

/** Starts the SDK on this page: a device and session id, automatic events, and the client. */
export function init(options: InitOptions): RingfenceClient {
  const { publishableKey, baseUrl, ...clientOptions } = options ?? ({} as InitOptions);
  if (typeof publishableKey !== 'string' || !/^(pk_|publishable_key_)/.test(publishableKey)) {
    throw new TypeError('Ringfence.init: publishableKey must be a publishable key (pk_…); never put a secret key in a page');
  }
  if (typeof baseUrl !== 'string') throw new TypeError('Ringfence.init: baseUrl is required, e.g. https://fraud.example.com');
  return new RingfenceClient(browserEnvironment(window, { publishableKey, baseUrl }), clientOptions);
}
