import type { Checkpoint } from './payload-routes';

/** Per-account switches; defaults apply when a field is absent. */
export interface AccountSettings {
  /** Voucher-abuse recommendations are on for new accounts (ADR-0009). */
  voucherAbuseEnabled?: boolean;
  /** Whether the POTENTIALLY_ labels are allowed (ADR-0008). */
  potentialLabelsEnabled?: boolean;
  /** The action a rate-limited checkpoint answers (ADR-0001); ALLOW when absent. */
  defaultAction?: 'ALLOW' | 'REVIEW' | 'PREVENT';
  /** How an explicit voucher-check threshold compares (ADR-0004); `gte` when absent. */
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
   * Where the live data set's label changes are POSTed (ADR-0013, ADR-0016): an https URL to
   * public addresses, or one the operator's `CALLBACK_ALLOWED_NETWORKS` allows. null or absent:
   * no callbacks for live labels.
   */
  callbackUrl?: string | null;
  /**
   * The HMAC key of the live callbacks' `Ringfence-Signature`. Never answered by any API (the
   * admin answers show `callbackSecretSet` instead: `publicAccountSettings`), never logged,
   * never published on a topic.
   */
  callbackSecret?: string | null;
  /** Where the sandbox (`test`) data set's label changes are POSTed; as `callbackUrl`. */
  testCallbackUrl?: string | null;
  /** The HMAC key of the sandbox callbacks; as `callbackSecret`. */
  testCallbackSecret?: string | null;
  /**
   * Per checkpoint, the scores (0–100) from which the model's answer is REVIEW and PREVENT;
   * scoring's defaults apply to a checkpoint without an entry.
   */
  scoreThresholds?: ScoreThresholds | null;
  /** The 3-D Secure policy of PSP transactions before authorisation; scoring's defaults when absent. */
  transactionOptimisation?: TransactionOptimisationSettings | null;
  /**
   * The merchant's time zone, an IANA name (`Europe/London`, `America/New_York`, `UTC`), stored
   * as the runtime spells it (`canonicalTimeZone`); null or absent: UTC. Fraud keeps the clock of
   * the people it comes from: the hour of day, the night and the weekend a checkpoint's features
   * read are the merchant's local ones, and an instant in UTC puts a London lunch and a Sydney
   * small hours in the same hour.
   */
  timeZone?: string | null;
  /**
   * The browser origins (exact, such as `https://shop.example`) whose pages may call the client
   * endpoints with the live data set's publishable key (ADR-0015); null or absent: none.
   */
  allowedOrigins?: string[] | null;
  /** The same for the sandbox (`test`) data set. */
  testAllowedOrigins?: string[] | null;
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

/**
 * What the gateway, which owns the account registry, tells the services about the account a
 * request acts for (docs/architecture.md, "Each service owns its data"): scoring, labelling and
 * the lookup apply these instead of reading the gateway's tables. They are the account as the
 * gateway authenticated the request, so a settings change answered 2xx applies to the next
 * request made through that gateway. Requests carry them; events never do (see
 * `withoutAccountFacts`): the warehouse feed is not the place for an account's settings.
 */
export interface AccountFacts {
  /** Set when the account is opened; it never changes. */
  industry: string | null;
  /** Every setting but the callback secrets, which never leave the gateway (ADR-0013). */
  settings: SharedAccountSettings;
}

export type SharedAccountSettings = Omit<AccountSettings, 'callbackSecret' | 'testCallbackSecret'>;

/** The facts of an account: its settings without the callback secrets. */
export function accountFactsOf(account: { industry: string | null; settings: AccountSettings }): AccountFacts {
  const { callbackSecret: _secret, testCallbackSecret: _testSecret, ...settings } = account.settings;
  return { industry: account.industry, settings };
}

/**
 * `ringfence.rpc.gateway.read-account-facts.v1`, answered by the account registry's owner (the
 * gateway): the envelope's account's facts, for work that starts from an event, which carries
 * none (scoring an `/async` transaction's checkpoint). The envelope names the account; the
 * payload is empty.
 */
export type ReadAccountFactsRequest = Record<string, never>;

export class ReadAccountFactsReply {
  /** null: there is no such account. */
  account!: AccountFacts | null;
}
