import fc from 'fast-check';
import { computeFeatures } from '../features/feature-catalogue';
import type { FeatureValue } from '../features/feature-definition';
import { CALIBRATION_CASES } from '../test-support/calibration-cases';
import { featureInputs, quietNetwork } from '../test-support/feature-inputs.factory';
import { BASE_SCORE, DEFAULT_THRESHOLDS, SCORE_MODEL, actionFor, scoreFeatures, thresholdsFor } from './score-model';

const caseNamed = (start: string) => {
  const found = CALIBRATION_CASES.find((item) => item.name.startsWith(start));
  if (!found) throw new Error(`no calibration case starts with "${start}"`);
  return scoreFeatures(computeFeatures(found.inputs), found.inputs.checkpoint);
};

describe(scoreFeatures.name, () => {
  it.each(CALIBRATION_CASES.map((item) => [item.name, item] as const))('calibration: %s', (_name, { inputs, expected }) => {
    expect(scoreFeatures(computeFeatures(inputs), inputs.checkpoint).action).toBe(expected);
  });

  it('does not reward missing details: a bare customer id scores above a complete new sign-up, which scores above an established customer', () => {
    const bare = caseNamed('A bare customer id');
    const complete = caseNamed('A new customer signs up');
    const established = caseNamed('An established customer');
    expect(bare.score).toBeGreaterThan(complete.score);
    expect(complete.score).toBeGreaterThan(established.score);
  });

  it('explains a score by the contributions of its features, raising and lowering it', () => {
    const { score, contributions } = caseNamed('A new customer signs up');
    expect(score).toBe(Math.max(0, BASE_SCORE + contributions.reduce((sum, item) => sum + item.contribution, 0)));
    expect(contributions).toEqual(
      expect.arrayContaining([
        { feature: 'accountAgeHours', value: expect.any(Number), condition: '< 1', contribution: 8 },
        { feature: 'emailMatchesName', value: true, condition: 'true', contribution: -5 },
      ]),
    );
    const sizes = contributions.map((item) => Math.abs(item.contribution));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });

  it('counts a term only at its checkpoints and for its subjects', () => {
    const shared = { network: quietNetwork({ networkSize: 5, networkCustomers: 3, maxOtherCustomers: { device: 0, card: 2, email: 0, phone: 0 } }) };
    const customer = scoreFeatures(computeFeatures(featureInputs(shared)), 'customer');
    const supplier = scoreFeatures(computeFeatures(featureInputs({ ...shared, checkpoint: 'payout', subjectKind: 'supplier' })), 'payout');
    expect(customer.contributions.map((item) => item.feature)).toContain('networkSharedCardCustomers');
    expect(supplier.contributions.map((item) => item.feature)).not.toContain('networkSharedCardCustomers');
    // A PSP transaction does not hold a missing name against the customer.
    const transaction = scoreFeatures(computeFeatures(featureInputs({ checkpoint: 'transaction', payload: { transaction: { transactionId: 'tx-1' } } })), 'transaction');
    expect(transaction).toMatchObject({ score: BASE_SCORE, contributions: [] });
  });

  it('keeps the score an integer within 0–100, its action the thresholds\', whatever the features', () => {
    const value: fc.Arbitrary<FeatureValue> = fc.oneof(fc.boolean(), fc.double({ min: -10, max: 1000, noNaN: true }), fc.constant(null));
    const names = [...new Set(SCORE_MODEL.map((term) => term.feature))];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), value), fc.constantFrom('customer', 'payout', 'refund', 'transaction', 'registration', 'voucherRedemption' as const), (features, checkpoint) => {
        const { score, action } = scoreFeatures({ subjectKind: 'customer', ...features }, checkpoint);
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
        expect(action).toBe(actionFor(score));
      }),
    );
  });

  it('turns the score into the action with the given thresholds', () => {
    const { score } = caseNamed('A bare customer id');
    expect(scoreFeatures(computeFeatures(featureInputs()), 'customer', { review: score, prevent: 100 }).action).toBe('REVIEW');
    expect(scoreFeatures(computeFeatures(featureInputs()), 'customer', { review: 5, prevent: score }).action).toBe('PREVENT');
  });
});

describe(thresholdsFor.name, () => {
  const strict = { review: 30, prevent: 60 };

  it("uses the account's thresholds for the checkpoint, else the defaults", () => {
    expect(thresholdsFor('payout', { payout: strict })).toBe(strict);
    expect(thresholdsFor('transaction', { transaction: strict, payout: DEFAULT_THRESHOLDS })).toBe(strict);
    expect(thresholdsFor('payout', { refund: strict })).toBe(DEFAULT_THRESHOLDS);
    expect(thresholdsFor('payout', null)).toBe(DEFAULT_THRESHOLDS);
    expect(thresholdsFor('payout')).toBe(DEFAULT_THRESHOLDS);
  });
});
