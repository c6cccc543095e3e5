import fc from 'fast-check';
import { metricsAtThreshold } from './classification-metrics';
import { DEFAULT_THRESHOLD_TARGETS, suggestScoreScale } from './score-scale-suggestion';

/** `count` examples at `score`, each labelled `label`. */
const at = (score: number, count: number, label: 0 | 1) => Array.from({ length: count }, () => ({ score, label }));
const split = (examples: Array<{ score: number; label: number }>) => ({ scores: examples.map((e) => e.score), labels: examples.map((e) => e.label) });

describe(suggestScoreScale.name, () => {
  it('blocks from the lowest score where nine in ten are fraud, and reviews down to 80 % of the fraud', () => {
    // 2,000 genuine at 2; fraud spread over 10, 30 and 60, with some genuine at 30 and 60.
    const { scores, labels } = split([...at(2, 2_000, 0), ...at(10, 10, 1), ...at(30, 20, 1), ...at(30, 20, 0), ...at(60, 30, 1), ...at(60, 2, 0)]);
    const suggested = suggestScoreScale(scores, labels);
    // At 60: 30 of 32 are fraud (0.94); at 30: 50 of 72 (0.69). Nothing scores 31 to 59.
    expect(suggested.prevent).toBe(60);
    // 50 of the 60 positives (83 %) score 30 or more, 3.5 % of the traffic; at 31 only half.
    expect(suggested.review).toBe(30);
  });

  it('blocks nothing (100) when no score reaches the precision over enough examples', () => {
    const { scores, labels } = split([...at(5, 500, 0), ...at(70, 9, 1), ...at(70, 9, 0), ...at(95, 5, 1)]);
    // 95 has precision 1, but over 5 examples only; 70 and up has 14 of 23.
    expect(suggestScoreScale(scores, labels).prevent).toBe(100);
  });

  it('raises REVIEW until at most 5 % of the traffic is reviewed', () => {
    // Fraud is indistinguishable at 20 (the recall target would review 40 % of everything).
    const { scores, labels } = split([...at(1, 600, 0), ...at(20, 380, 0), ...at(20, 20, 1), ...at(40, 30, 0)]);
    const suggested = suggestScoreScale(scores, labels);
    expect(suggested.review).toBe(21);
    const share = scores.filter((score) => score >= suggested.review).length / scores.length;
    expect(share).toBeLessThanOrEqual(DEFAULT_THRESHOLD_TARGETS.maxReviewShare);
  });

  it('always gives 1 ≤ review ≤ prevent ≤ 100, and a PREVENT that meets its precision on the examples it chose from', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ score: fc.integer({ min: 0, max: 100 }), label: fc.constantFrom(0, 1) }), { maxLength: 400 }), (examples) => {
        const { scores, labels } = split(examples);
        const { review, prevent } = suggestScoreScale(scores, labels);
        expect(review).toBeGreaterThanOrEqual(1);
        expect(review).toBeLessThanOrEqual(prevent);
        expect(prevent).toBeLessThanOrEqual(100);
        const atPrevent = metricsAtThreshold(scores, labels, prevent);
        if (prevent < 100) expect(atPrevent.precision).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD_TARGETS.preventPrecision);
      }),
    );
  });
});
