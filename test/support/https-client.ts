import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface TestResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface TestRequest {
  method?: string;
  path: string;
  body?: unknown;
  /** Sent as is, for malformed-body tests; wins over `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  apiKey?: string;
  /** How long the request may wait with nothing received before it fails (default 15 s). */
  timeoutMs?: number;
}

/**
 * A small HTTP(S) client for tests: trusts the given CA (the embedded self-signed cert), parses
 * JSON answers, and never throws for a non-2xx status.
 */
export class TestHttpClient {
  constructor(private readonly baseUrl: string, private readonly ca?: string) {}

  send<T = Record<string, unknown>>(req: TestRequest): Promise<TestResponse<T>> {
    const url = new URL(req.path, this.baseUrl);
    const payload = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    const headers: Record<string, string | number> = {
      ...(req.body !== undefined && req.rawBody === undefined ? { 'content-type': 'application/json' } : {}),
      ...(req.apiKey ? { authorization: `token ${req.apiKey}` } : {}),
      ...(payload !== undefined ? { 'content-length': Buffer.byteLength(payload) } : {}),
      ...req.headers,
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(url, { method: req.method ?? (payload === undefined ? 'GET' : 'POST'), headers, ca: this.ca, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: the test sees the text.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, text });
        });
      });
      request.setTimeout(req.timeoutMs ?? 15_000, () => request.destroy(new Error(`${req.method ?? 'GET'} ${req.path} timed out after ${req.timeoutMs ?? 15_000} ms`)));
      request.on('error', reject);
      request.end(payload);
    });
  }
}
