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
  /** The client address to send from (another loopback address, 127.0.0.2…, is another client). */
  localAddress?: string;
  /** A deadline for the whole exchange, connection and answer included (without it: 15 s with nothing received). */
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
    const method = req.method ?? (payload === undefined ? 'GET' : 'POST');
    const deadline = req.timeoutMs === undefined ? undefined : AbortSignal.timeout(req.timeoutMs);
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => reject(deadline?.aborted ? new Error(`${method} ${req.path}: no answer within ${req.timeoutMs} ms`) : error);
      const request = send(url, { method, headers, ca: this.ca, agent: false, signal: deadline, localAddress: req.localAddress }, (res) => {
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(new Error(`${method} ${req.path}: the answer was cut off`));
        });
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
      request.setTimeout(15_000, () => request.destroy(new Error(`${method} ${req.path} timed out`)));
      request.on('error', fail);
      request.end(payload);
    });
  }
}
