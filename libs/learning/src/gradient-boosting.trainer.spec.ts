import { rocAuc } from './classification-metrics';
import { type LabelledRows, selectRows } from './feature-matrix';
import { meanLogLoss, trainGradientBoostedTrees } from './gradient-boosting.trainer';
import { trainLogisticRegression } from './logistic-regression';
import { type SyntheticDatasetOptions, syntheticDataset } from './test-support/synthetic-dataset';

/** The first 80 % of a synthetic dataset's rows to learn from and the last 20 % to judge on. */
function trainAndTest(overrides: Partial<SyntheticDatasetOptions>): { training: LabelledRows; test: LabelledRows; trueMargins: Float64Array } {
  const data = syntheticDataset(overrides);
  const cut = Math.floor(data.matrix.rowCount * 0.8);
  const rows = (from: number, to: number) => Uint32Array.from({ length: to - from }, (_, index) => from + index);
  const part = (from: number, to: number): LabelledRows => ({ matrix: selectRows(data.matrix, rows(from, to)), labels: data.labels.slice(from, to) });
  return { training: part(0, cut), test: part(cut, data.matrix.rowCount), trueMargins: data.trueMargins.slice(cut) };
}

describe(trainGradientBoostedTrees.name, () => {
  it('ranks held-out rows nearly as well as the true log-odds do', () => {
    const { training, test, trueMargins } = trainAndTest({ rows: 20_000, signal: 'additive', seed: 1 });
    const { model } = trainGradientBoostedTrees(training, { trees: 150, seed: 2 });
    const auc = rocAuc(model.predictMargins(test.matrix), test.labels);
    const bestPossible = rocAuc(trueMargins, test.labels);
    expect(auc).toBeGreaterThan(0.85);
    expect(auc).toBeGreaterThan(bestPossible - 0.02);
  });

  it('learns an interaction that a logistic regression cannot', () => {
    const { training, test } = trainAndTest({ rows: 20_000, signal: 'interaction', seed: 3 });
    const trees = trainGradientBoostedTrees(training, { trees: 150, seed: 2 }).model;
    const regression = trainLogisticRegression(training);
    const treesAuc = rocAuc(trees.predictMargins(test.matrix), test.labels);
    const regressionAuc = rocAuc(regression.predictMargins(test.matrix), test.labels);
    expect(treesAuc).toBeGreaterThan(0.85);
    expect(treesAuc - regressionAuc).toBeGreaterThan(0.1);
  });

  it('learns where missing values go: missingness that signals fraud sends them to the riskier side', () => {
    const { training } = trainAndTest({ rows: 10_000, signal: 'additive', missingRate: 0.3, seed: 4 });
    const { model } = trainGradientBoostedTrees(training, { trees: 80, seed: 2 });
    const ipRisk = training.matrix.featureNames.indexOf('ipRisk');
    const vector = new Float32Array(training.matrix.featureNames.length);
    vector[ipRisk] = 0.1;
    const low = model.predictMargin(vector);
    vector[ipRisk] = Number.NaN;
    // The synthetic log-odds add 1 for a missing ipRisk and 2 × (0.1 − 0.5) = −0.8 for 0.1.
    expect(model.predictMargin(vector) - low).toBeGreaterThan(1);
  });

  it('is deterministic given its seed, and the seed drives the row subsampling', () => {
    const { training } = trainAndTest({ rows: 3_000, seed: 5 });
    const margins = (seed: number) => trainGradientBoostedTrees(training, { trees: 20, subsample: 0.5, seed }).model.predictMargins(training.matrix);
    expect(margins(9)).toEqual(margins(9));
    expect(margins(9)).not.toEqual(margins(10));
  });

  it('stops when the validation loss stops improving, keeping the best trees, and reports each tree', () => {
    const { training, test } = trainAndTest({ rows: 4_000, seed: 6 });
    const progress: [number, number, number | null][] = [];
    const result = trainGradientBoostedTrees(training, { trees: 1_000, learningRate: 0.5, earlyStoppingRounds: 5, seed: 2 }, test, (done, total, loss) => progress.push([done, total, loss]));
    expect(result.treesFitted).toBeLessThan(1_000);
    expect(result.treesFitted - result.model.trees.length).toBe(5);
    const best = Math.min(...result.validationLosses);
    expect(result.validationLosses[result.model.trees.length - 1]).toBe(best);
    expect(meanLogLoss(result.model.predictMargins(test.matrix), test.labels)).toBeCloseTo(best, 6);
    expect(progress.map(([done]) => done)).toEqual(Array.from({ length: result.treesFitted }, (_, index) => index + 1));
    expect(progress.every(([, total, loss]) => total === 1_000 && typeof loss === 'number')).toBe(true);
  });

  it('keeps every tree within the depth and leaf limits, with covers that add up', () => {
    const { training } = trainAndTest({ rows: 5_000, seed: 7 });
    const { model } = trainGradientBoostedTrees(training, { trees: 10, maxDepth: 3, maxLeaves: 6, subsample: 0.7, seed: 2 });
    for (const tree of model.trees) {
      const leaves = tree.splitFeature.filter((feature) => feature === -1).length;
      expect(leaves).toBeLessThanOrEqual(6);
      const depthOf = (node: number): number => (tree.splitFeature[node] === -1 ? 0 : 1 + Math.max(depthOf(tree.leftChild[node]), depthOf(tree.rightChild[node])));
      expect(depthOf(0)).toBeLessThanOrEqual(3);
      // About 70 % of the rows, drawn per tree.
      expect(tree.coverCount[0] / training.matrix.rowCount).toBeCloseTo(0.7, 1);
      tree.splitFeature.forEach((feature, node) => {
        if (feature === -1) return;
        expect(tree.coverCount[tree.leftChild[node]] + tree.coverCount[tree.rightChild[node]]).toBe(tree.coverCount[node]);
        expect(tree.coverHessian[tree.leftChild[node]] + tree.coverHessian[tree.rightChild[node]]).toBeCloseTo(tree.coverHessian[node], 6);
      });
    }
  });

  it('refuses labels that are not 0 or 1 and options out of range', () => {
    const { training } = trainAndTest({ rows: 500, seed: 8 });
    expect(() => trainGradientBoostedTrees({ ...training, labels: training.labels.map(() => 2) })).toThrow('labels must be 0 or 1');
    expect(() => trainGradientBoostedTrees(training, { subsample: 0 })).toThrow('subsample');
    expect(() => trainGradientBoostedTrees(training, { maxBins: 300 })).toThrow('maxBins');
  });
});
