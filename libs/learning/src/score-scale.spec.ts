import fc from 'fast-check';
import { IDENTITY_SCALE, SCALED_PREVENT, SCALED_REVIEW, scaledScore } from './score-scale';

const scales = fc
  .tuple(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }))
  .map(([a, b]) => ({ review: Math.min(a, b), prevent: Math.max(a, b) }));

describe(scaledScore.name, () => {
  it('puts the REVIEW and PREVENT knots exactly on 50 and 80, stays monotone and within 0–100', () => {
    fc.assert(
      fc.property(scales, (scale) => {
        let previous = -1;
        for (let raw = 0; raw <= 100; raw += 1) {
          const score = scaledScore(raw, scale);
          expect(Number.isInteger(score) && score >= 0 && score <= 100).toBe(true);
          expect(score).toBeGreaterThanOrEqual(previous);
          previous = score;
          expect(score >= SCALED_REVIEW).toBe(raw >= scale.review);
          expect(score >= SCALED_PREVENT).toBe(raw >= scale.prevent || raw === 100);
        }
      }),
    );
  });

  it('is the identity on the identity scale (models trained before scales)', () => {
    for (let raw = 0; raw <= 100; raw += 1) expect(scaledScore(raw, IDENTITY_SCALE)).toBe(raw);
  });

  it('stretches a model whose fraud sits at low probabilities', () => {
    const scale = { review: 4, prevent: 30 };
    expect([0, 2, 4, 17, 30, 65, 100].map((raw) => scaledScore(raw, scale))).toEqual([0, 25, 50, 65, 80, 90, 100]);
  });
});
