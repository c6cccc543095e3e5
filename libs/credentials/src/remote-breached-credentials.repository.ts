import type { BreachedCredential, BreachedCredentialsRepository } from './breached-credentials.repository';

/** How long the gateway waits for the lookup service's store. */
const TIMEOUT_MS = 2_000;

export class BreachedCredentialsUnavailableError extends Error {
  constructor(reason: string) {
    super(`the breached-credentials store (lookup service) is unavailable: ${reason}`);
    this.name = 'BreachedCredentialsUnavailableError';
  }
}

/**
 * The distributed mode's port in the gateway: the lookup service holds the store and answers
 * over its internal HTTP routes (`/internal/breached-credentials/*`), authenticated with the
 * internal credential (INTERNAL_API_KEY; never the admin token, ADR-0016). Only the
 * username goes there, never the checked password hash: the lookup service answers the stored
 * 8-byte prefixes and the gateway compares in its own process (ADR-0006). Never over the
 * bus, whose messages are kept in the broker's log.
 */
export class RemoteBreachedCredentialsRepository implements BreachedCredentialsRepository {
  constructor(
    private readonly lookupUrl: string,
    private readonly internalKey: string,
  ) {}

  async passwordPrefixesOf(username: string): Promise<string[]> {
    const body = await this.post<{ prefixes: string[] }>('prefixes', { username });
    return body.prefixes;
  }

  async insert(credentials: readonly BreachedCredential[]): Promise<number> {
    const body = await this.post<{ inserted: number }>('pairs', { entries: credentials });
    return body.inserted;
  }

  reload(): Promise<{ generation: string | undefined; pairs: number; usernames: number }> {
    return this.post('reload', {});
  }

  private async post<T>(route: string, payload: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(new URL(`/internal/breached-credentials/${route}`, this.lookupUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `token ${this.internalKey}` },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error: unknown) {
      throw new BreachedCredentialsUnavailableError(error instanceof Error ? error.name : 'request failed');
    }
    // The error body is not repeated: it could hold what was sent.
    if (!response.ok) throw new BreachedCredentialsUnavailableError(`HTTP ${response.status}`);
    return (await response.json()) as T;
  }
}
