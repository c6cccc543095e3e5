import type { Environment } from '@ringfence/contracts';

/**
 * The kinds of known-fraud indicator. The names are the request's: the GET query parameters
 * and the keys of the answers (`paymentMethod` is stored as whichever one of its identifiers
 * was sent).
 */
export const INDICATOR_KINDS = ['email', 'telephone', 'ipAddress', 'instrumentId', 'payerId', 'bankId'] as const;
export type IndicatorKind = (typeof INDICATOR_KINDS)[number];

/** One indicator, its value normalised (see `normalise-indicator.ts`). */
export interface IndicatorRef {
  kind: IndicatorKind;
  value: string;
}

/**
 * What an indicator's evidence can be. A `report` is an indicator POSTed without chargebacks or
 * manual reviews: it is still known, backed only by the account's word.
 */
export const EVIDENCE_KINDS = ['chargeback', 'manualReview', 'report'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** Whose indicators: an account's data set (its sandbox and live data never mix). */
export interface LookupTenant {
  accountId: string;
  environment: Environment;
}
