import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { AdminApiError } from './admin-client';
import type { ApiConnection } from './traffic-sender';

/**
 * An answer of the public API other than 2xx, from its error envelope `{status, message,
 * timestamp, traceId}`; the program prints it as it prints the admin API's.
 */
export class PublicApiError extends AdminApiError {
  constructor(
    status: number,
    message: string,
    traceId?: string,
    /** The answer's `Retry-After` (429, 503), in seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(status, message, traceId);
    this.name = 'PublicApiError';
  }
}

export interface PublicApiClientOptions extends ApiConnection {
  /** The account's secret API key, sent as `Authorization: token <key>`. */
  apiKey: string;
  timeoutMs?: number;
}

/** The public API over HTTPS with the account's secret key: the models and users commands' client. */
export class PublicApiClient {
  private readonly agent: HttpAgent | HttpsAgent;
  private readonly url: URL;

  constructor(private readonly options: PublicApiClientOptions) {
    this.url = new URL(options.baseUrl);
    const ca = options.caFile ? readFileSync(options.caFile) : undefined;
    // One connection kept open while a training is followed, rather than a handshake a second.
    this.agent = this.url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: 1, ca, rejectUnauthorized: !options.insecure }) : new HttpAgent({ keepAlive: true, maxSockets: 1 });
  }

  close(): void {
    this.agent.destroy();
  }

  protected call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
    const target = new URL(path, this.url);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        target,
        {
          method,
          agent: this.agent,
          timeout: this.options.timeoutMs ?? 30_000,
          headers: {
            authorization: `token ${this.options.apiKey}`,
            accept: 'application/json',
            ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = null;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              parsed = { message: text.slice(0, 200) };
            }
            if (status >= 200 && status < 300) return resolve(parsed);
            const envelope = (parsed ?? {}) as { message?: unknown; traceId?: unknown };
            const retryAfter = Number(res.headers['retry-after']);
            reject(
              new PublicApiError(
                status,
                typeof envelope.message === 'string' ? envelope.message : `HTTP ${status}`,
                typeof envelope.traceId === 'string' ? envelope.traceId : undefined,
                res.headers['retry-after'] !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
              ),
            );
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer from ${target.origin} in time`)));
      req.on('error', reject);
      req.end(payload);
    });
  }
}
