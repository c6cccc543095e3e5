/** One breached username and the SHA-256 (lower-case hex) of a password it used. */
export interface BreachedCredential {
  /** Normalised (`normaliseUsername`). */
  username: string;
  passwordHash: string;
}

/**
 * The breached-credentials store (ADR-0006). Global, not per account: a breach corpus is
 * public knowledge about usernames, shared by every account; so, unlike every other repository,
 * its methods take no tenant.
 */
export interface BreachedCredentialsRepository {
  /**
   * The distinct password-hash prefixes (the first 16 hex characters of each SHA-256) stored
   * for a username (normalised). The check compares the hash it was given in its own process,
   * so that hash is never sent anywhere.
   */
  passwordPrefixesOf(username: string): Promise<string[]>;
  /** Stores the pairs not stored yet (idempotent); answers how many were new. */
  insert(credentials: readonly BreachedCredential[]): Promise<number>;
  /** Switches to the store's newest generation (written by a CLI import); answers its size. */
  reload(): Promise<{ generation: string | undefined; pairs: number; usernames: number }>;
}

export const BREACHED_CREDENTIALS_REPOSITORY = Symbol('BreachedCredentialsRepository');
