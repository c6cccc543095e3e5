import type { AccountSettings, VoucherThresholdComparison } from './account';

/** ADR-0004: the defaults when neither the request nor the account says otherwise. */
export const DEFAULT_VOUCHER_CHECK_DEPTH = 10;
export const DEFAULT_VOUCHER_CHECK_THRESHOLD = 3;

export interface VoucherCheckPolicy {
  depth: number;
  threshold: number;
  comparison: VoucherThresholdComparison;
}

/** What a voucher check request may set; 0 means "not set" (specification §4.12). */
export interface VoucherCheckParameters {
  voucherType?: string;
  depth?: number;
  threshold?: number;
}

const given = (value: number | undefined): number | undefined => (value === undefined || value === 0 ? undefined : value);

/**
 * The depth, threshold and comparison of one voucher check (ADR-0004): the request's
 * values, else the account's for the voucher type, else depth 10 and threshold 3.
 *
 * The specification gives two rules (≥ 3, or > 2) that agree at the defaults; the account's
 * comparison (per type, else account-wide, else `gte`) decides for an explicit threshold. At
 * the default threshold the rule is always "at least 3", whichever comparison is set.
 */
export function voucherCheckPolicy(settings: AccountSettings, request: VoucherCheckParameters): VoucherCheckPolicy {
  const forType = request.voucherType === undefined ? undefined : settings.voucherTypes?.[request.voucherType];
  const threshold = given(request.threshold) ?? given(forType?.threshold);
  return {
    depth: given(request.depth) ?? given(forType?.depth) ?? DEFAULT_VOUCHER_CHECK_DEPTH,
    threshold: threshold ?? DEFAULT_VOUCHER_CHECK_THRESHOLD,
    comparison: threshold === undefined ? 'gte' : (forType?.comparison ?? settings.voucherThresholdComparison ?? 'gte'),
  };
}

/** `ABUSE` when the uses found reach the threshold under the policy's comparison. */
export function voucherCheckRecommendation(uses: number, policy: VoucherCheckPolicy): 'ABUSE' | 'OK' {
  const abuse = policy.comparison === 'gt' ? uses > policy.threshold : uses >= policy.threshold;
  return abuse ? 'ABUSE' : 'OK';
}
