import { rocAuc } from './classification-metrics';
import { minimizeLbfgs } from './lbfgs.optimizer';
import { LogisticRegression, trainLogisticRegression } from './logistic-regression';
import { seededRandom } from './seeded-random';
import { syntheticDataset } from './test-support/synthetic-dataset';

/** Rows drawn from a known logistic model with two standardised-ish features. */
function logisticRows(rows: number, weights: [number, number], intercept: number) {
  const random = seededRandom(21);
  const values = new Float32Array(rows * 2);
  const labels = new Uint8Array(rows);
  for (let row = 0; row < rows; row += 1) {
    const first = random() * 2 - 1;
    const second = random() * 4;
    values[row] = first;
    values[rows + row] = second;
    labels[row] = random() < 1 / (1 + Math.exp(-(intercept + weights[0] * first + weights[1] * second))) ? 1 : 0;
  }
  return { matrix: { rowCount: rows, featureNames: ['first', 'second'], values }, labels };
}

describe(trainLogisticRegression.name, () => {
  it('recovers the weights the labels were drawn with', () => {
    const rows = logisticRows(50_000, [2, -0.5], 0.3);
    const model = trainLogisticRegression(rows, { l2: 1e-6 });
    const rawWeights = Array.from(model.coefficients, (coefficient, feature) => coefficient / model.scales[feature]);
    expect(rawWeights[0]).toBeCloseTo(2, 1);
    expect(rawWeights[1]).toBeCloseTo(-0.5, 1);
    expect(model.predictMargin([0, 0])).toBeCloseTo(0.3, 1);
  });

  it('shrinks the coefficients as the L2 penalty grows', () => {
    const rows = logisticRows(5_000, [2, -0.5], 0.3);
    const size = (l2: number) => Math.hypot(...trainLogisticRegression(rows, { l2 }).coefficients);
    expect(size(1)).toBeLessThan(size(0.01));
  });

  it('ranks an additive signal well, imputing missing values with the mean', () => {
    const data = syntheticDataset({ rows: 10_000, signal: 'additive', missingRate: 0.3, seed: 2 });
    const model = trainLogisticRegression(data);
    expect(rocAuc(model.predictMargins(data.matrix), data.labels)).toBeGreaterThan(0.85);
    const ipRisk = data.matrix.featureNames.indexOf('ipRisk');
    const vector = new Float32Array(data.matrix.featureNames.length).fill(Number.NaN);
    expect(model.explain(vector).contributions[ipRisk]).toBe(0);
  });
});

describe(LogisticRegression.name, () => {
  it('explains a margin as coefficient × standardised value, adding up from the intercept', () => {
    const model = new LogisticRegression(['a', 'b'], Float64Array.from([10, 0]), Float64Array.from([2, 1]), Float64Array.from([0.5, -1]), -2);
    const { expectedValue, contributions } = model.explain([14, Number.NaN]);
    expect(Array.from(contributions)).toEqual([1, 0]);
    expect(expectedValue + contributions[0] + contributions[1]).toBe(model.predictMargin([14, Number.NaN]));
  });
});

describe(minimizeLbfgs.name, () => {
  it('finds the minimum of an ill-conditioned quadratic', () => {
    const scales = [1, 10, 100, 1_000];
    const objective = (point: Float64Array, gradient: Float64Array) => {
      let value = 0;
      point.forEach((coordinate, index) => {
        const offset = coordinate - index;
        value += scales[index] * offset * offset;
        gradient[index] = 2 * scales[index] * offset;
      });
      return value;
    };
    const result = minimizeLbfgs(objective, new Float64Array(4), { gradientTolerance: 1e-9, relativeTolerance: 0 });
    expect(result.converged).toBe(true);
    Array.from(result.solution).forEach((coordinate, index) => expect(coordinate).toBeCloseTo(index, 6));
  });
});
