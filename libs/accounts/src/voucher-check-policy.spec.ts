import { voucherCheckPolicy, voucherCheckRecommendation } from './voucher-check-policy';

describe('voucherCheckPolicy', () => {
  it('defaults to depth 10 and "at least 3"', () => {
    expect(voucherCheckPolicy({}, {})).toEqual({ depth: 10, threshold: 3, comparison: 'gte' });
    expect(voucherCheckPolicy({}, { depth: 0, threshold: 0, voucherType: 'GENERAL' })).toEqual({ depth: 10, threshold: 3, comparison: 'gte' });
  });

  it('takes the request first, then the voucher type, then the defaults', () => {
    const settings = { voucherTypes: { REFERRAL: { depth: 4, threshold: 5 } } };
    expect(voucherCheckPolicy(settings, { voucherType: 'REFERRAL' })).toEqual({ depth: 4, threshold: 5, comparison: 'gte' });
    expect(voucherCheckPolicy(settings, { voucherType: 'REFERRAL', depth: 2, threshold: 1 })).toEqual({ depth: 2, threshold: 1, comparison: 'gte' });
    expect(voucherCheckPolicy(settings, { voucherType: 'GENERAL' })).toEqual({ depth: 10, threshold: 3, comparison: 'gte' });
  });

  it('applies the account comparison (per type first) only to an explicit threshold', () => {
    const settings = { voucherThresholdComparison: 'gt' as const, voucherTypes: { STAFF: { comparison: 'gte' as const } } };
    expect(voucherCheckPolicy(settings, { threshold: 2 }).comparison).toBe('gt');
    expect(voucherCheckPolicy(settings, { voucherType: 'STAFF', threshold: 2 }).comparison).toBe('gte');
    expect(voucherCheckPolicy(settings, {})).toEqual({ depth: 10, threshold: 3, comparison: 'gte' });
  });
});

describe('voucherCheckRecommendation', () => {
  it.each([
    [2, 'gte', 3, 'OK'],
    [3, 'gte', 3, 'ABUSE'],
    [3, 'gt', 3, 'OK'],
    [4, 'gt', 3, 'ABUSE'],
    [0, 'gte', 1, 'OK'],
  ] as const)('%i uses, %s %i: %s', (uses, comparison, threshold, expected) => {
    expect(voucherCheckRecommendation(uses, { depth: 10, threshold, comparison })).toBe(expected);
  });
});
