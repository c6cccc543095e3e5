import type { Checkpoint, Environment } from '@ringfence/contracts';

export type KeyKind = 'secret' | 'publishable';

/** Per-account switches; defaults apply when a field is absent. */
export interface AccountSettings {
  /** Voucher-abuse recommendations are on for new accounts (decisions §9). */
  voucherAbuseEnabled?: boolean;
  /** Whether the POTENTIALLY_ labels are allowed (decisions §8). */
  potentialLabelsEnabled?: boolean;
  /** The action a rate-limited checkpoint answers (decisions §1); ALLOW when absent. */
  defaultAction?: 'ALLOW' | 'REVIEW' | 'PREVENT';
  /** How an explicit voucher-check threshold compares (decisions §4); `gte` when absent. */
  voucherThresholdComparison?: VoucherThresholdComparison;
  /** Per voucher type, what a voucher check uses when it sends no depth or threshold (or 0). */
  voucherTypes?: Record<string, VoucherTypeSettings>;
  /**
   * At checkpoints, how many distinct other accounts must have reported one of the request's
   * known-fraud indicators before it makes the answer REVIEW; 3 when absent.
   */
  lookupConsortiumMinAccounts?: number;
  /** At checkpoints, count other accounts' lookup evidence only from accounts of this account's industry; false when absent. */
  lookupLimitIndustry?: boolean;
  /**
   * Where label changes are POSTed (decisions §13): an https URL, or http to localhost /
   * 127.0.0.1 (see `callbackUrlProblem`). null or absent: no callbacks.
   */
  callbackUrl?: string | null;
  /**
   * The HMAC key of the callbacks' `Ringfence-Signature`. Never answered by any API (the admin
   * answers show `callbackSecretSet` instead: `publicAccountSettings`), never logged, never
   * published on a topic.
   */
  callbackSecret?: string | null;
  /**
   * Per checkpoint, the scores (0–100) from which the model's answer is REVIEW and PREVENT;
   * scoring's defaults apply to a checkpoint without an entry.
   */
  scoreThresholds?: ScoreThresholds | null;
  /** The 3-D Secure policy of PSP transactions before authorisation; scoring's defaults when absent. */
  transactionOptimisation?: TransactionOptimisationSettings | null;
}

/** Exemption limits per currency (ISO 4217) in major units, and the score up to which TRA is asked. */
export interface TransactionOptimisationSettings {
  lowValueLimits?: Record<string, number>;
  traLimits?: Record<string, number>;
  traMaxScore?: number;
}

export type VoucherThresholdComparison = 'gte' | 'gt';

/** The score (0–100, integers) from which a checkpoint answers REVIEW, and from which PREVENT; `review <= prevent`. */
export interface ScoreThreshold {
  review: number;
  prevent: number;
}

export type ScoreThresholds = Partial<Record<Checkpoint, ScoreThreshold>>;

export interface VoucherTypeSettings {
  depth?: number;
  threshold?: number;
  /** Overrides the account's `voucherThresholdComparison` for this type. */
  comparison?: VoucherThresholdComparison;
}

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
  listForAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no unrevoked key has this id. */
  revoke(keyId: string, at: Date): Promise<boolean>;
  /** A caching implementation drops what it holds of the account (its settings changed). */
  forgetAccount?(accountId: string): void;
}

export const ACCOUNT_REPOSITORY = Symbol('AccountRepository');
export const API_KEY_REPOSITORY = Symbol('ApiKeyRepository');
