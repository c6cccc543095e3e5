import { calibratedProbability, fitCalibration, riskScore } from './calibration';
import { fitIsotonicCalibration, isotonicProbability } from './isotonic-calibration';
import { fitPlattCalibration } from './platt-calibration';
import { seededRandom } from './seeded-random';

/**
 * Held-out margins of a model that ranks well but is miscalibrated: the true log-odds are
 * `trueMargin`, the model says `distort(trueMargin)`.
 */
function heldOut(count: number, seed: number, distort: (trueMargin: number) => number) {
  const random = seededRandom(seed);
  const margins = new Float64Array(count);
  const labels = new Uint8Array(count);
  for (let index = 0; index < count; index += 1) {
    const trueMargin = random() * 8 - 5;
    margins[index] = distort(trueMargin);
    labels[index] = random() < 1 / (1 + Math.exp(-trueMargin)) ? 1 : 0;
  }
  return { margins, labels };
}

/** The largest gap between the mean predicted probability and the observed rate, over ten equal-count bins. */
function worstCalibrationGap(probabilities: Float64Array, labels: Uint8Array): number {
  const order = Array.from(probabilities.keys()).sort((left, right) => probabilities[left] - probabilities[right]);
  let worst = 0;
  for (let bin = 0; bin < 10; bin += 1) {
    const members = order.slice((bin * order.length) / 10, ((bin + 1) * order.length) / 10);
    const predicted = members.reduce((sum, index) => sum + probabilities[index], 0) / members.length;
    const observed = members.reduce((sum, index) => sum + labels[index], 0) / members.length;
    worst = Math.max(worst, Math.abs(predicted - observed));
  }
  return worst;
}

const cubed = (trueMargin: number) => (trueMargin * trueMargin * trueMargin) / 4 + 3;

describe(fitIsotonicCalibration.name, () => {
  it('pools adjacent violators into the best non-decreasing fit', () => {
    const calibration = fitIsotonicCalibration([1, 2, 3, 4, 5], [0, 1, 0, 1, 1]);
    expect(calibration).toEqual({ kind: 'isotonic', margins: [1, 2, 3, 4, 5], probabilities: [0, 0.5, 0.5, 1, 1] });
    expect([0, 1.5, 2.5, 3.5, 10].map((margin) => isotonicProbability(calibration, margin))).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it('treats equal margins as one point', () => {
    expect(fitIsotonicCalibration([2, 1, 2, 2], [1, 0, 0, 1])).toEqual({ kind: 'isotonic', margins: [1, 2], probabilities: [0, 2 / 3] });
  });

  it('calibrates a model whose margins are a distorted log-odds, and never decreases', () => {
    const training = heldOut(20_000, 1, cubed);
    const calibration = fitIsotonicCalibration(training.margins, training.labels);
    const test = heldOut(20_000, 2, cubed);
    const probabilities = test.margins.map((margin) => isotonicProbability(calibration, margin));
    expect(worstCalibrationGap(probabilities, test.labels)).toBeLessThan(0.03);
    const grid = Array.from({ length: 400 }, (_, index) => isotonicProbability(calibration, -40 + index * 0.2));
    expect(grid.every((probability, index) => index === 0 || probability >= grid[index - 1])).toBe(true);
    expect(grid[0]).toBeLessThan(0.05);
    expect(grid[grid.length - 1]).toBeGreaterThan(0.9);
  });
});

describe(fitPlattCalibration.name, () => {
  it('recovers the stretch and shift of the margins', () => {
    const { margins, labels } = heldOut(50_000, 3, (trueMargin) => 2 * trueMargin + 1);
    const calibration = fitPlattCalibration(margins, labels);
    expect(calibration.slope).toBeCloseTo(0.5, 1);
    expect(calibration.intercept).toBeCloseTo(-0.5, 1);
    const test = heldOut(20_000, 4, (trueMargin) => 2 * trueMargin + 1);
    expect(worstCalibrationGap(test.margins.map((margin) => calibratedProbability(calibration, margin)), test.labels)).toBeLessThan(0.03);
  });

  it('stays finite on perfectly separated labels', () => {
    const calibration = fitCalibration('platt', [-2, -1, 1, 2], [0, 0, 1, 1]);
    expect(calibration.kind === 'platt' && Number.isFinite(calibration.slope)).toBe(true);
  });
});

describe(riskScore.name, () => {
  it('is the calibrated probability in percent, rounded, within 0–100', () => {
    expect([0, 0.004, 0.005, 0.5, 0.8, 0.996, 1].map(riskScore)).toEqual([0, 0, 1, 50, 80, 100, 100]);
    expect([Number.NaN, -0.1, 1.2].map(riskScore)).toEqual([0, 0, 100]);
  });
});
