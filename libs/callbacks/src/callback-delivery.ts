import type { Environment } from '@ringfence/contracts';
import type { CallbackErrorClass } from './callback-error-class';

/** Where a delivery stands: `pending` until a 2xx answer (`delivered`) or the end of its retries (`failed`). */
export const CALLBACK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type CallbackDeliveryStatus = (typeof CALLBACK_DELIVERY_STATUSES)[number];

/** The data set whose label changes a delivery reports: the account and the key's environment. */
export interface CallbackTenant {
  accountId: string;
  environment: Environment;
}

/** One POST to the receiver, as recorded (times in epoch milliseconds). */
export interface CallbackAttempt {
  /** When the attempt started. */
  at: number;
  /** The receiver's HTTP status; null when no answer came (refused, timed out, interrupted). */
  httpStatus: number | null;
  /**
   * Why the attempt got no 2xx (`CALLBACK_ERROR_CLASSES`: `status` when the receiver answered
   * another status); null after a 2xx. Never the socket's message (ADR-0016): that is only
   * logged.
   */
  error: CallbackErrorClass | null;
  durationMs: number;
}

/** A label change to deliver to an account's callback URL, with every attempt made so far. */
export interface CallbackDelivery extends CallbackTenant {
  deliveryId: string;
  /**
   * The id of the label event the delivery was made from: the bus delivers at least once, and
   * the same event recorded again adds nothing.
   */
  sourceEventId: string;
  /**
   * Where the delivery was last sent: the account's callback URL for the data set when the label
   * changed, then the URL each attempt went to. Every attempt reads the URL anew (ADR-0016:
   * pending deliveries go to the current URL).
   */
  url: string;
  /** The JSON body, exactly as every attempt sends (and signs) it. */
  body: string;
  status: CallbackDeliveryStatus;
  /** Oldest first. */
  attempts: CallbackAttempt[];
  /** When the next attempt is due; null once delivered or failed. */
  nextAttemptAt: number | null;
  /** When the label changed: retries end a fixed time after it (`CallbackRetryPolicy.windowMs`). */
  changedAt: number;
  createdAt: number;
}

/** What the consumer records: a pending delivery, due at `createdAt`, with no attempt yet. */
export type NewCallbackDelivery = Omit<CallbackDelivery, 'status' | 'attempts' | 'nextAttemptAt'>;

/** A delivery the dispatcher claimed: what an attempt needs (the URL it asks for at the attempt). */
export interface DueCallbackDelivery extends CallbackTenant {
  deliveryId: string;
  body: string;
  changedAt: number;
  /** Attempts already recorded; the backoff before the next one grows with it. */
  attemptCount: number;
}

/** How an attempt leaves its delivery. */
export interface CallbackAttemptOutcome {
  status: CallbackDeliveryStatus;
  nextAttemptAt: number | null;
  /** The URL the attempt was sent to, which becomes the delivery's `url`; null when nothing was sent. */
  url: string | null;
}

/**
 * What the dispatcher may claim: the earliest due deliveries, taken round-robin across accounts
 * (each account's earliest first, then every account's second, …) and never more for one account
 * than its free slots, so one account's backlog or slow receiver leaves the others their share.
 */
export interface CallbackClaim {
  now: number;
  /** The claimed deliveries are kept from other claims until then. */
  leaseUntil: number;
  /** At most this many deliveries in all. */
  limit: number;
  /** At most this many in flight per account, counting `inFlightByAccount`. */
  perAccountLimit: number;
  /** Attempts this dispatcher has in flight, by account id. */
  inFlightByAccount: ReadonlyMap<string, number>;
}

export interface CallbackDeliveryPage {
  limit: number;
  /** A `deliveryId`: only deliveries recorded before it. */
  before?: string;
}

/**
 * The durable record of callback deliveries: pending ones survive a restart and are resumed
 * from here. Every method but the dispatcher's two (`claimDue`, `nextAttemptDueAt`), which work
 * through every account's due deliveries, takes the tenant.
 */
export interface CallbackDeliveryRepository {
  /**
   * Stores a new pending delivery. False, and nothing stored, when the tenant already has a
   * delivery of the same `sourceEventId` (a redelivered event).
   */
  record(delivery: NewCallbackDelivery): Promise<boolean>;
  /**
   * Pending deliveries due at `claim.now`, as `CallbackClaim` shares them out (in no particular
   * order), each moved to `leaseUntil` in the same statement: another dispatcher (another
   * process) skips them, and a process that dies mid-attempt leaves them due again once the
   * lease is over.
   */
  claimDue(claim: CallbackClaim): Promise<DueCallbackDelivery[]>;
  /** The earliest `nextAttemptAt` of any pending delivery of an account not in `exceptAccounts`; null when none. */
  nextAttemptDueAt(exceptAccounts: readonly string[]): Promise<number | null>;
  /** Appends the attempt and sets the delivery's status, next attempt and URL; a delivery no longer pending is left as it is. */
  recordAttempt(tenant: CallbackTenant, deliveryId: string, attempt: CallbackAttempt, outcome: CallbackAttemptOutcome): Promise<void>;
  /** The tenant's deliveries, newest first; null when `before` names none of the tenant's deliveries. */
  list(tenant: CallbackTenant, page: CallbackDeliveryPage): Promise<CallbackDelivery[] | null>;
}

export const CALLBACK_DELIVERY_REPOSITORY = Symbol('CallbackDeliveryRepository');
