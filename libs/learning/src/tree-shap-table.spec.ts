import { trainGradientBoostedTrees } from './gradient-boosting.trainer';
import { matrixRow } from './feature-matrix';
import { seededRandom } from './seeded-random';
import { bruteForceShapley, randomTree } from './test-support/random-trees.factory';
import { syntheticDataset } from './test-support/synthetic-dataset';
import { LEAF, type RegressionTree } from './regression-tree';
import { addTreeShap } from './tree-shap';
import { MAX_TABLED_PATH_FEATURES, TreeShapTable } from './tree-shap-table';

function randomVector(features: number, seed: number, missingRate: number): Float64Array {
  const random = seededRandom(seed);
  return Float64Array.from({ length: features }, () => (random() < missingRate ? Number.NaN : random()));
}

/**
 * A tree whose right-most path splits on features 0, 1, …, depth − 1 in turn, each split
 * sending a share of the rows to a leaf on the left: its deepest leaves' paths have `depth`
 * distinct features.
 */
function chainTree(depth: number): RegressionTree {
  const nodes = depth * 2 + 1;
  const tree: RegressionTree = {
    splitFeature: new Int32Array(nodes).fill(LEAF),
    threshold: new Float64Array(nodes),
    defaultLeft: new Uint8Array(nodes),
    leftChild: new Int32Array(nodes).fill(-1),
    rightChild: new Int32Array(nodes).fill(-1),
    leafValue: new Float64Array(nodes),
    coverHessian: new Float64Array(nodes),
    coverCount: new Float64Array(nodes),
  };
  const random = seededRandom(depth);
  let rows = 1 << 24;
  for (let level = 0; level < depth; level += 1) {
    const split = level * 2;
    const leaf = split + 1;
    tree.splitFeature[split] = level;
    tree.threshold[split] = random();
    tree.defaultLeft[split] = level % 2;
    tree.leftChild[split] = leaf;
    tree.rightChild[split] = split + 2;
    tree.coverCount[split] = rows;
    tree.coverHessian[split] = rows / 4;
    const left = Math.max(1, Math.floor(rows * (0.2 + 0.3 * random())));
    tree.coverCount[leaf] = left;
    tree.coverHessian[leaf] = left / 4;
    tree.leafValue[leaf] = random() * 2 - 1;
    rows -= left;
  }
  tree.coverCount[nodes - 1] = rows;
  tree.coverHessian[nodes - 1] = rows / 4;
  tree.leafValue[nodes - 1] = random() * 2 - 1;
  return tree;
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

  it('explains a path of as many distinct features as it tables, and declines one more', () => {
    const features = MAX_TABLED_PATH_FEATURES + 1;
    const vector = randomVector(features, 9, 0.1);
    const longest = chainTree(MAX_TABLED_PATH_FEATURES);
    const fast = new Float64Array(features);
    const reference = new Float64Array(features);
    tabled([longest]).addContributions(vector, fast);
    addTreeShap(longest, vector, reference);
    fast.forEach((contribution, feature) => expect(contribution).toBeCloseTo(reference[feature], 10));
    expect(TreeShapTable.of([chainTree(MAX_TABLED_PATH_FEATURES + 1)])).toBeNull();
  });
});
