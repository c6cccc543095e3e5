import type { Environment, IndicatorKind } from '@ringfence/contracts';

// The kinds are the contracts' (scoring's evidence question names them too).
export { INDICATOR_KINDS, type IndicatorKind } from '@ringfence/contracts';

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
  /**
   * The account's industry, as the request says (`AccountFacts`): kept with the evidence it
   * reports, and compared with other accounts' under `limitIndustry`. It never changes.
   */
  industry: string | null;
}
