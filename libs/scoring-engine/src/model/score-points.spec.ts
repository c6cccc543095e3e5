import { contributionsInPoints, unlistedPoints } from './score-points';
import { BASE_SCORE, scoreFeatures } from './score-model';

const item = (feature: string, contribution: number) => ({ feature, value: true, contribution });

describe('contributionsInPoints', () => {
  it('rescales every contribution by one factor so that they add up to the score with the base', () => {
    const inLogOdds = [item('a', 2), item('b', -0.5), item('c', 0.5)];

    const points = contributionsInPoints(inLogOdds, 2, 10, 70);

    expect(points.map((point) => point.contribution)).toEqual([60, -15, 15]);
    expect(10 + points.reduce((sum, point) => sum + point.contribution, 0)).toBe(70);
  });

  it('counts zero for each when the total is zero (the score is the base)', () => {
    expect(contributionsInPoints([item('a', 1), item('b', -1)], 0, 20, 20).map((point) => point.contribution)).toEqual([0, 0]);
  });

  it('leaves a sum that already adds up as it is', () => {
    expect(contributionsInPoints([item('a', 30)], 30, 20, 50)).toEqual([item('a', 30)]);
  });
});

describe('unlistedPoints', () => {
  it('is what the listed contributions leave of the score above the base', () => {
    expect(unlistedPoints([item('a', 25), item('b', -5)], 20, 43)).toBe(3);
  });
});

describe('scoreFeatures in points', () => {
  it('adds up to the score with the base, also when the score was capped at 100', () => {
    const heavy = {
      subjectKind: 'customer',
      emailDisposable: true,
      emailLocalPartDigitRatio: 0.9,
      ipCountryMismatch: true,
      ipIsTor: true,
      networkHopsToFraud: 1,
      sdkWebdriver: true,
      sdkCardFieldPaste: true,
    };
    const scored = scoreFeatures(heavy, 'transaction');
    const sum = scored.contributions.reduce((total, point) => total + point.contribution, 0);

    expect(scored.score).toBe(100);
    expect(BASE_SCORE + sum).toBeCloseTo(scored.score, 9);
  });
});
