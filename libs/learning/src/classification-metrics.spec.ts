import { averagePrecision, logLoss, metricsAtThreshold, rocAuc } from './classification-metrics';

describe(rocAuc.name, () => {
  it('is the share of positive–negative pairs ranked right', () => {
    // Pairs (positive, negative): (0.35, 0.1) right, (0.35, 0.4) wrong, (0.8, 0.1) and (0.8, 0.4) right.
    expect(rocAuc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75);
  });

  it('counts a tie as half a pair (average ranks)', () => {
    // 0.9 beats both negatives (2); the positive at 0.5 ties both (2 × ½).
    expect(rocAuc([0.5, 0.5, 0.5, 0.9], [0, 1, 0, 1])).toBe(0.75);
    expect(rocAuc([1, 1, 1, 1], [0, 1, 0, 1])).toBe(0.5);
  });

  it('is undefined without positives or without negatives', () => {
    expect(rocAuc([0.1, 0.2], [0, 0])).toBeNaN();
    expect(rocAuc([0.1, 0.2], [1, 1])).toBeNaN();
  });
});

describe(averagePrecision.name, () => {
  it("weighs each threshold's precision by the recall it adds", () => {
    // From the top: 0.8 (positive): P 1, R ½; 0.4 (negative); 0.35 (positive): P ⅔, R 1.
    expect(averagePrecision([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBeCloseTo(0.5 * 1 + 0.5 * (2 / 3), 12);
  });

  it('lets tied scores enter together', () => {
    // 0.9 (positive): P 1, R ½; the three at 0.5 together: P 2/4, R 1.
    expect(averagePrecision([0.5, 0.5, 0.5, 0.9], [0, 1, 0, 1])).toBe(0.75);
  });
});

describe(metricsAtThreshold.name, () => {
  it('flags scores at or above the threshold', () => {
    expect(metricsAtThreshold([10, 50, 80, 90], [0, 1, 0, 1], 80)).toEqual({ flagged: 2, precision: 0.5, recall: 0.5 });
    expect(metricsAtThreshold([10, 50, 80, 90], [0, 1, 0, 1], 95)).toEqual({ flagged: 0, precision: Number.NaN, recall: 0 });
  });
});

describe(logLoss.name, () => {
  it('is the mean negative log-likelihood, finite for a confident miss', () => {
    expect(logLoss([0.9, 0.2], [1, 0])).toBeCloseTo(-(Math.log(0.9) + Math.log(0.8)) / 2, 12);
    expect(logLoss([0], [1])).toBeCloseTo(-Math.log(1e-15), 6);
  });
});
