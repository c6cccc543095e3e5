import { type FeatureColumn, buildFeatureMatrix, trainScoringModel } from '@ringfence/learning';
import { DEFAULT_THRESHOLDS } from '@ringfence/scoring-engine';
import { learnedScore, loadedModel } from './learned-score';

const FEATURES: FeatureColumn[] = [
  { name: 'emailDisposable', type: 'bool' },
  { name: 'amountMajorUnits', type: 'double' },
  { name: 'ipCountryMismatch', type: 'bool' },
];

/** A small model: fraud is a disposable e-mail, more often with a large amount or a foreign IP address. */
function trained(algorithm: 'gradient-boosted-trees' | 'logistic-regression') {
  const records = Array.from({ length: 1_200 }, (_, row) => ({ emailDisposable: row % 10 === 0, amountMajorUnits: (row * 37) % 500, ipCountryMismatch: row % 7 === 0 }));
  const labels = Uint8Array.from(records, (record, row) => (record.emailDisposable && (record.amountMajorUnits > 200 || record.ipCountryMismatch || row % 3 === 0) ? 1 : 0));
  const { model } = trainScoringModel({
    algorithm,
    features: FEATURES,
    matrix: buildFeatureMatrix(FEATURES, records),
    labels,
    eventTimes: Float64Array.from(records, (_, row) => row),
    ...(algorithm === 'gradient-boosted-trees' ? { boosting: { trees: 20 } } : {}),
  });
  return loadedModel(`mdl_${algorithm}`, model, 'account');
}

describe('learnedScore', () => {
  const cases = [
    { emailDisposable: true, amountMajorUnits: 450, ipCountryMismatch: true },
    { emailDisposable: true, amountMajorUnits: 20, ipCountryMismatch: false },
    { emailDisposable: false, amountMajorUnits: 300, ipCountryMismatch: true },
    { emailDisposable: false, amountMajorUnits: 5, ipCountryMismatch: false },
  ];

  it.each(['gradient-boosted-trees', 'logistic-regression'] as const)('gives a %s model\'s contributions in points that add up to its score with the base, within the score\'s rounding', (algorithm) => {
    const loaded = trained(algorithm);
    for (const features of cases) {
      const { baseScore, model } = learnedScore(loaded, features, DEFAULT_THRESHOLDS);
      const sum = model.contributions.reduce((total, item) => total + item.contribution, 0);

      // The score and the base are whole numbers, each floored from the line the points are measured on.
      expect(Math.abs(baseScore + sum - model.score)).toBeLessThan(1);
    }
  });

  it('shows the direction of a contribution too small to move the whole-number score', () => {
    const loaded = trained('logistic-regression');
    const { model } = learnedScore(loaded, { emailDisposable: false, amountMajorUnits: 250.01, ipCountryMismatch: false }, DEFAULT_THRESHOLDS);

    expect(model.contributions.every((item) => item.contribution !== 0)).toBe(true);
  });

  it('keeps the direction of each log-odds contribution: a disposable e-mail raises the score', () => {
    const loaded = trained('gradient-boosted-trees');
    const { model, baseScore } = learnedScore(loaded, cases[0], DEFAULT_THRESHOLDS);

    expect(model.score).toBeGreaterThan(baseScore);
    expect(model.contributions.find((item) => item.feature === 'emailDisposable')?.contribution).toBeGreaterThan(0);
  });
});
