import { SendError, httpTransport, normalizeBaseUrl } from './transport';

interface Call {
  url: string;
  init: RequestInit;
}

function fakeFetch(status = 202, body: unknown = { status, data: {} }) {
  const calls: Call[] = [];
  const fetch = ((url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

const KEY = 'pk_test_abc+/=';

describe('httpTransport', () => {
  it('posts JSON to /v2/client/events with the key in Authorization, no cookies', async () => {
    const { calls, fetch } = fakeFetch();
    await httpTransport({ baseUrl: 'https://fraud.example/', publishableKey: KEY, fetch }).send('{"events":[]}');

    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('https://fraud.example/v2/client/events');
    expect(calls[0].init).toMatchObject({ method: 'POST', body: '{"events":[]}', credentials: 'omit', headers: { Authorization: `token ${KEY}`, 'Content-Type': 'application/json' } });
  });

  it('says whether a failed batch may pass later: network, 429 and 5xx yes, a refusal no', async () => {
    const failure = async (status: number) => httpTransport({ baseUrl: 'https://fraud.example', publishableKey: KEY, fetch: fakeFetch(status).fetch }).send('{}').catch((error: SendError) => error);
    const unreachable = ((() => Promise.reject(new TypeError('Failed to fetch'))) as unknown) as typeof fetch;

    expect(await failure(500)).toMatchObject({ retry: true, message: expect.stringContaining('500') });
    expect(await failure(429)).toMatchObject({ retry: true });
    expect(await failure(403)).toMatchObject({ retry: false });
    expect(await failure(400)).toMatchObject({ retry: false });
    await expect(httpTransport({ baseUrl: 'https://fraud.example', publishableKey: KEY, fetch: unreachable }).send('{}')).rejects.toMatchObject({ retry: true });
  });

  it('sends a beacon as text with the key in the query, falling back to a keepalive fetch when refused', () => {
    const beacons: Array<[string, string]> = [];
    const { calls, fetch } = fakeFetch();
    const transport = (accepts: boolean) => httpTransport({ baseUrl: 'https://fraud.example', publishableKey: KEY, fetch, sendBeacon: (url, data) => (beacons.push([url, data]), accepts) });

    expect(transport(true).beacon('{"a":1}')).toBe(true);
    expect(beacons).toEqual([[`https://fraud.example/v2/client/events?key=${encodeURIComponent(KEY)}`, '{"a":1}']]);
    expect(calls).toHaveLength(0);
    expect(transport(false).beacon('{"a":2}')).toBe(false);
    expect(calls[0]).toMatchObject({ url: beacons[0][0], init: { method: 'POST', body: '{"a":2}', keepalive: true, headers: { 'Content-Type': 'text/plain;charset=UTF-8' } } });
  });

  it('reads the encryption key from GET /v2/client/encryption-key', async () => {
    const data = { keyIndex: 2, algorithm: 'RSA_OAEP_SHA256_AES_256_GCM', publicKey: 'MIIB' };
    const { calls, fetch } = fakeFetch(200, { status: 200, timestamp: 1, data });

    expect(await httpTransport({ baseUrl: 'https://fraud.example/base/', publishableKey: KEY, fetch }).encryptionKey()).toEqual(data);
    expect(calls[0]).toMatchObject({ url: 'https://fraud.example/base/v2/client/encryption-key', init: { method: 'GET', headers: { Authorization: `token ${KEY}` } } });
  });
});

describe('normalizeBaseUrl', () => {
  it('takes an http(s) URL without its trailing slash and refuses anything else', () => {
    expect(normalizeBaseUrl('https://fraud.example:8443/')).toBe('https://fraud.example:8443');
    expect(() => normalizeBaseUrl('javascript:alert(1)')).toThrow(/http/);
    expect(() => normalizeBaseUrl('/relative')).toThrow();
  });
});
