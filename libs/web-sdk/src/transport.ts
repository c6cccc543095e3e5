import type { EncryptionKey } from './card-cipher';

/** How the SDK reaches the service: the two publishable-key endpoints of ADR-0015, nothing else. */
export interface Transport {
  /** Sends a batch; resolves once accepted, rejects with a SendError otherwise. */
  send(body: string): Promise<void>;
  /** Sends a batch as the page goes away; whether the browser took it. */
  beacon(body: string): boolean;
  encryptionKey(): Promise<EncryptionKey>;
}

/** A failed call; `retry` when the same batch may succeed later (network, 429, 5xx). */
export class SendError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
    this.name = 'SendError';
  }
}

export interface TransportOptions {
  baseUrl: string;
  publishableKey: string;
  fetch: typeof fetch;
  /** `navigator.sendBeacon`, bound; absent where there is none. */
  sendBeacon?: (url: string, data: string) => boolean;
}

/** The base URL without a trailing slash; throws unless it is an absolute http(s) URL. */
export function normalizeBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('Ringfence.init: baseUrl must be an http(s) URL');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Over fetch, the key in `Authorization: token …` and JSON bodies, no cookies. A beacon can set
 * neither a header nor a JSON type: it carries the key as the `key` query parameter and sends
 * the same JSON as `text/plain`, which the endpoint reads as JSON (and which needs no preflight).
 */
export function httpTransport(options: TransportOptions): Transport {
  const base = normalizeBaseUrl(options.baseUrl);
  const eventsUrl = `${base}/v2/client/events`;
  const headers = { Authorization: `token ${options.publishableKey}` };
  const call = async (url: string, init: RequestInit): Promise<Response> => {
    let response: Response;
    try {
      response = await options.fetch(url, { ...init, credentials: 'omit', mode: 'cors', cache: 'no-store' });
    } catch (error) {
      throw new SendError(`Ringfence: ${url} unreachable (${String(error)})`, true);
    }
    if (!response.ok) throw new SendError(`Ringfence: ${url} answered ${response.status}`, response.status === 429 || response.status >= 500);
    return response;
  };
  return {
    async send(body) {
      await call(eventsUrl, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body });
    },
    beacon(body) {
      const url = `${eventsUrl}?key=${encodeURIComponent(options.publishableKey)}`;
      if (options.sendBeacon?.(url, body)) return true;
      // No beacon, or the browser refused it (its quota): a request that outlives the page.
      options.fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'text/plain;charset=UTF-8' }, keepalive: true, credentials: 'omit', mode: 'cors' }).catch(() => undefined);
      return false;
    },
    async encryptionKey() {
      const response = await call(`${base}/v2/client/encryption-key`, { method: 'GET', headers });
      const answer = (await response.json()) as { data?: EncryptionKey };
      if (!answer.data || typeof answer.data.keyIndex !== 'number') throw new SendError('Ringfence: the encryption key answer has no data.keyIndex', false);
      return answer.data;
    },
  };
}
