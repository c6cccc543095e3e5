import { trainGradientBoostedTrees } from './gradient-boosting.trainer';
import { matrixRow } from './feature-matrix';
import { seededRandom } from './seeded-random';
import { bruteForceShapley, randomTree } from './test-support/random-trees.factory';
import { syntheticDataset } from './test-support/synthetic-dataset';
import { addTreeShap } from './tree-shap';
import { MAX_TABLED_PATH_FEATURES, TreeShapTable } from './tree-shap-table';

function randomVector(features: number, seed: number, missingRate: number): Float64Array {
  const random = seededRandom(seed);
  return Float64Array.from({ length: features }, () => (random() < missingRate ? Number.NaN : random()));
}

function tabled(trees: Parameters<typeof TreeShapTable.of>[0]): TreeShapTable {
  const table = TreeShapTable.of(trees);
  if (table === null) throw new Error('the trees were not tabled');
  return table;
}

describe(TreeShapTable.name, () => {
  it.each([1, 2, 3, 4, 5, 6])('equals the brute-force Shapley values of random trees that split on features again (seed %i)', (seed) => {
    const trees = [1, 2, 3].map((offset) => randomTree({ featureCount: 5, maxDepth: 7, seed: seed * 13 + offset }));
    const vector = randomVector(5, seed * 31, 0.2);
    const contributions = new Float64Array(5);
    tabled(trees).addContributions(vector, contributions);
    const expected = bruteForceShapley(trees, vector, 5);
    contributions.forEach((contribution, feature) => expect(contribution).toBeCloseTo(expected[feature], 10));
  });

  it('gives the recursive algorithm its answers on vectors that sit exactly on thresholds and are missing', () => {
    const tree = randomTree({ featureCount: 8, maxDepth: 8, seed: 77 });
    const table = tabled([tree]);
    const thresholds = Array.from(tree.threshold).filter((threshold) => threshold !== 0);
    for (let seed = 0; seed < 50; seed += 1) {
      const random = seededRandom(seed);
      const vector = Float64Array.from({ length: 8 }, () => {
        const draw = random();
        if (draw < 0.15) return Number.NaN;
        if (draw < 0.4) return thresholds[Math.floor(random() * thresholds.length)];
        return random();
      });
      const fast = new Float64Array(8);
      const reference = new Float64Array(8);
      table.addContributions(vector, fast);
      addTreeShap(tree, vector, reference);
      fast.forEach((contribution, feature) => expect(contribution).toBeCloseTo(reference[feature], 12));
    }
  });

  it("explains a trained model as the recursive algorithm does, row by row", () => {
    const data = syntheticDataset({ rows: 3_000, signal: 'interaction', seed: 21 });
    const { model } = trainGradientBoostedTrees(data, { trees: 40, maxDepth: 6, seed: 5 });
    const table = tabled(model.trees);
    const vector = new Float32Array(data.matrix.featureNames.length);
    for (let row = 0; row < 200; row += 1) {
      matrixRow(data.matrix, row, vector);
      const fast = new Float64Array(vector.length);
      const reference = new Float64Array(vector.length);
      table.addContributions(vector, fast);
      for (const tree of model.trees) addTreeShap(tree, vector, reference);
      fast.forEach((contribution, feature) => expect(contribution).toBeCloseTo(reference[feature], 10));
    }
  });

  it('declines trees whose paths split on more distinct features than it tables', () => {
    const tree = randomTree({ featureCount: 40, maxDepth: MAX_TABLED_PATH_FEATURES + 6, rows: 1 << 20, seed: 3 });
    // Random trees this deep have some path with more distinct features than the limit.
    expect(TreeShapTable.of([tree])).toBeNull();
  });
});
