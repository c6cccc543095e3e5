import { GradientBoostedTrees } from './gradient-boosted-trees';
import { trainGradientBoostedTrees } from './gradient-boosting.trainer';
import { matrixRow } from './feature-matrix';
import { leafOf } from './regression-tree';
import { seededRandom } from './seeded-random';
import { bruteForceShapley, randomTree } from './test-support/random-trees.factory';
import { syntheticDataset } from './test-support/synthetic-dataset';
import { addTreeShap, expectedTreeValue } from './tree-shap';

const FEATURES = 6;

function randomVector(seed: number, missingRate = 0): Float64Array {
  const random = seededRandom(seed);
  return Float64Array.from({ length: FEATURES }, () => (random() < missingRate ? Number.NaN : random()));
}

describe(addTreeShap.name, () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('equals the brute-force Shapley values of a random tree (seed %i)', (seed) => {
    const tree = randomTree({ featureCount: FEATURES, maxDepth: 6, seed });
    const vector = randomVector(seed * 31, 0.2);
    const contributions = new Float64Array(FEATURES);
    addTreeShap(tree, vector, contributions);
    const expected = bruteForceShapley([tree], vector, FEATURES);
    contributions.forEach((contribution, feature) => expect(contribution).toBeCloseTo(expected[feature], 10));
  });

  it('equals the brute-force Shapley values of an ensemble, where trees split on the same features again', () => {
    const trees = [1, 2, 3, 4, 5].map((seed) => randomTree({ featureCount: 3, maxDepth: 7, seed: seed * 7 }));
    const vector = Float64Array.from([0.3, Number.NaN, 0.8]);
    const contributions = new Float64Array(3);
    for (const tree of trees) addTreeShap(tree, vector, contributions);
    const expected = bruteForceShapley(trees, vector, 3);
    contributions.forEach((contribution, feature) => expect(contribution).toBeCloseTo(expected[feature], 10));
  });

  it("adds up to the tree's output minus its expected value", () => {
    const tree = randomTree({ featureCount: FEATURES, maxDepth: 8, seed: 99 });
    for (let seed = 0; seed < 20; seed += 1) {
      const vector = randomVector(seed, 0.1);
      const contributions = new Float64Array(FEATURES);
      addTreeShap(tree, vector, contributions);
      const total = contributions.reduce((sum, contribution) => sum + contribution, 0);
      expect(expectedTreeValue(tree) + total).toBeCloseTo(tree.leafValue[leafOf(tree, vector)], 10);
    }
  });

  it('gives nothing to a feature the tree never splits on', () => {
    const tree = randomTree({ featureCount: 2, maxDepth: 5, seed: 5 });
    const contributions = new Float64Array(4);
    addTreeShap(tree, [0.5, 0.5, 0.5, 0.5], contributions);
    expect([contributions[2], contributions[3]]).toEqual([0, 0]);
  });
});

describe(GradientBoostedTrees.name, () => {
  it("explains a trained model exactly: expected value + contributions = its margin, on every row", () => {
    const data = syntheticDataset({ rows: 3_000, signal: 'interaction', seed: 11 });
    const { model } = trainGradientBoostedTrees(data, { trees: 40, maxDepth: 5, seed: 3 });
    const vector = new Float32Array(data.matrix.featureNames.length);
    for (let row = 0; row < 200; row += 1) {
      matrixRow(data.matrix, row, vector);
      const { expectedValue, contributions } = model.explain(vector);
      const total = contributions.reduce((sum, contribution) => sum + contribution, expectedValue);
      expect(total).toBeCloseTo(model.predictMargin(vector), 9);
    }
  });

  it('puts the weight of an interaction on the two features that make it', () => {
    const data = syntheticDataset({ rows: 5_000, signal: 'interaction', seed: 12 });
    const { model } = trainGradientBoostedTrees(data, { trees: 60, seed: 3 });
    const importance = new Float64Array(data.matrix.featureNames.length);
    const vector = new Float32Array(importance.length);
    for (let row = 0; row < 300; row += 1) {
      model.explain(matrixRow(data.matrix, row, vector)).contributions.forEach((contribution, feature) => (importance[feature] += Math.abs(contribution)));
    }
    const ranked = [...data.matrix.featureNames].sort((left, right) => importance[data.matrix.featureNames.indexOf(right)] - importance[data.matrix.featureNames.indexOf(left)]);
    expect(ranked.slice(0, 2).sort()).toEqual(['signalA', 'signalB']);
  });
});
