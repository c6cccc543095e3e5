import type { AccountSettings, Environment } from '@ringfence/contracts';

// The settings travel with each request to the services that apply them (contracts' AccountFacts).
export type { AccountSettings, ScoreThreshold, ScoreThresholds, TransactionOptimisationSettings, VoucherThresholdComparison, VoucherTypeSettings } from '@ringfence/contracts';

export type KeyKind = 'secret' | 'publishable';

export interface Account {
  id: string;
  name: string;
  industry: string | null;
  settings: AccountSettings;
  createdAt: Date;
}

/** A stored API key: never the key itself, only its SHA-256 hash and a display prefix. */
export interface ApiKeyRecord {
  id: string;
  accountId: string;
  kind: KeyKind;
  environment: Environment;
  keyHash: string;
  /** The first characters of the key (`sk_test_AbCd`), enough to recognise it in a list. */
  displayPrefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** The tenant registry. The admin API is its only writer. */
export interface AccountRepository {
  insert(account: Account): Promise<void>;
  findById(accountId: string): Promise<Account | null>;
  findByName(name: string): Promise<Account | null>;
  list(): Promise<Account[]>;
  /**
   * Sets the given settings, leaving the others as they are, in one atomic write; returns the
   * account as stored afterwards, or null when there is no such account.
   */
  updateSettings(accountId: string, settings: AccountSettings): Promise<Account | null>;
}

export interface ApiKeyRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  /** The unrevoked key with this hash, with its account; null when unknown or revoked. */
  findActiveByHash(keyHash: string): Promise<{ key: ApiKeyRecord; account: Account } | null>;
  /** The key with this hash, revoked or not (a hash is never issued twice); null when unknown. */
  findByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  listForAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no unrevoked key has this id. */
  revoke(keyId: string, at: Date): Promise<boolean>;
  /** A caching implementation drops what it holds of the account (its settings changed). */
  forgetAccount?(accountId: string): void;
}

export const ACCOUNT_REPOSITORY = Symbol('AccountRepository');
export const API_KEY_REPOSITORY = Symbol('ApiKeyRepository');
