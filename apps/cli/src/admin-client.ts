import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';

export interface AdminClientOptions {
  baseUrl: string;
  adminKey: string;
  /** PEM of a CA to trust (the embedded mode's self-signed certificate). */
  caFile?: string;
  /** Skip certificate verification (development only). */
  insecure?: boolean;
  timeoutMs?: number;
}

export interface FeedPage {
  topic: string;
  events: Array<{ sequence: number; key: string; envelope: Record<string, unknown> }>;
  next: number;
  done: boolean;
}

export class AdminApiError extends Error {
  constructor(readonly status: number, message: string, readonly traceId?: string) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/** A small client of the admin API (ADR-0002), used by the `ringfence` CLI. */
export class AdminClient {
  private readonly ca?: Buffer;

  constructor(private readonly options: AdminClientOptions) {
    this.ca = options.caFile ? readFileSync(options.caFile) : undefined;
  }

  createAccount(name: string, industry?: string) {
    return this.call('POST', '/admin/accounts', { name, ...(industry ? { industry } : {}) });
  }

  listAccounts() {
    return this.call('GET', '/admin/accounts');
  }

  issueKey(accountId: string, kind: string, env: string) {
    return this.call('POST', `/admin/accounts/${encodeURIComponent(accountId)}/keys`, { kind, env });
  }

  /** `GET /v2/account`: with an account's secret key as the token, that account (its id, the key's data set). */
  ownAccount() {
    return this.call('GET', '/v2/account') as Promise<{ data: { accountId: string; environment: 'test' | 'live' } }>;
  }

  updateSettings(accountId: string, settings: Record<string, boolean | string>) {
    return this.call('PATCH', `/admin/accounts/${encodeURIComponent(accountId)}/settings`, settings);
  }

  revokeKey(keyId: string) {
    return this.call('DELETE', `/admin/keys/${encodeURIComponent(keyId)}`);
  }

  feedTopics() {
    return this.call('GET', '/admin/feed') as Promise<{ topics: string[] }>;
  }

  /** One page of a warehouse-feed topic (embedded mode). */
  readFeed(topic: string, after: number, accountId?: string) {
    const query = new URLSearchParams({ after: String(after), ...(accountId ? { accountId } : {}) });
    return this.call('GET', `/admin/feed/${encodeURIComponent(topic)}?${query}`) as Promise<FeedPage>;
  }

  importBreachedCredentials(entries: ReadonlyArray<{ username: string; passwordHash: string }>) {
    return this.call('POST', '/admin/breached-credentials', { entries }) as Promise<{ received: number; inserted: number }>;
  }

  /** After a CLI import: the server switches to the store's new generation before answering. */
  reloadBreachedCredentials() {
    return this.call('POST', '/admin/breached-credentials/reload') as Promise<{ generation: string | null; pairs: number; usernames: number }>;
  }

  private call(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = new URL(path, this.options.baseUrl);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        url,
        {
          method,
          ca: this.ca,
          rejectUnauthorized: !this.options.insecure,
          timeout: this.options.timeoutMs ?? 10_000,
          headers: {
            authorization: `token ${this.options.adminKey}`,
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const parsed: unknown = text ? JSON.parse(text) : null;
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) return resolve(parsed);
            const envelope = (parsed ?? {}) as { message?: string; traceId?: string };
            reject(new AdminApiError(status, envelope.message ?? `HTTP ${status}`, envelope.traceId));
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer from ${url.origin} in time`)));
      req.on('error', reject);
      req.end(payload);
    });
  }
}
