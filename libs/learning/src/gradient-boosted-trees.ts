import type { FeatureMatrix } from './feature-matrix';
import { FlattenedTrees } from './flattened-trees';
import { type MarginExplanation, type MarginPredictor, marginsOfRows } from './margin-predictor';
import type { BinUpperBounds } from './quantile-bins';
import { LEAF, type RegressionTree, treeDepth } from './regression-tree';
import { type ShapPath, addTreeShap, expectedTreeValue, treeShapWorkspace } from './tree-shap';
import { TreeShapTable } from './tree-shap-table';

/**
 * A trained ensemble of regression trees whose outputs, added to `baseScore`, are the log-odds
 * of a positive. The trees are also concatenated into one set of flat arrays (`FlattenedTrees`,
 * children as absolute indices) so a prediction walks a few hundred trees without touching an
 * object; the explanation table reads the same arrays rather than a copy of its own.
 */
export class GradientBoostedTrees implements MarginPredictor {
  readonly kind = 'gradient-boosted-trees';
  /** The mean margin over the training rows: the explanations' starting point. */
  readonly expectedValue: number;
  private readonly nodes: FlattenedTrees;
  /** Reused by every explanation (they run to completion one at a time on a thread). */
  private readonly shapWorkspace: ShapPath;
  /** Built at the first explanation; null when a path is too long to table (see `TreeShapTable.of`). */
  private shapTable: TreeShapTable | null | undefined;

  constructor(
    readonly featureNames: readonly string[],
    /** The log-odds of the training rows' positive rate: where boosting starts. */
    readonly baseScore: number,
    readonly trees: readonly RegressionTree[],
    /** Each feature's bins when it was trained (for retraining and inspection; prediction uses the thresholds). */
    readonly binUpperBounds: readonly BinUpperBounds[],
  ) {
    this.nodes = new FlattenedTrees(trees);
    this.expectedValue = trees.reduce((sum, tree) => sum + expectedTreeValue(tree), baseScore);
    this.shapWorkspace = treeShapWorkspace(trees.reduce((deepest, tree) => Math.max(deepest, treeDepth(tree)), 0));
  }

  predictMargin(vector: ArrayLike<number>): number {
    let margin = this.baseScore;
    const { roots, splitFeature, threshold, defaultLeft, leftChild, rightChild, leafValue } = this.nodes;
    for (let tree = 0; tree < roots.length; tree += 1) {
      let node = roots[tree];
      let feature = splitFeature[node];
      while (feature !== LEAF) {
        const value = vector[feature];
        node = (value !== value ? defaultLeft[node] === 1 : value <= threshold[node]) ? leftChild[node] : rightChild[node];
        feature = splitFeature[node];
      }
      margin += leafValue[node];
    }
    return margin;
  }

  predictMargins(matrix: FeatureMatrix): Float64Array {
    return marginsOfRows(this, matrix);
  }

  /**
   * Exact TreeSHAP contributions of every feature, in log-odds, summed over the trees: from the
   * precomputed table (a few microseconds a tree), or by the recursive algorithm when the trees
   * are too deep to table.
   */
  explain(vector: ArrayLike<number>): MarginExplanation {
    const contributions = new Float64Array(this.featureNames.length);
    const table = this.explanationTable();
    if (table !== null) table.addContributions(vector, contributions);
    else for (const tree of this.trees) addTreeShap(tree, vector, contributions, this.shapWorkspace);
    return { expectedValue: this.expectedValue, contributions };
  }

  /** The explanation table, built on first use (about 200 ms for 300 trees) and kept. */
  explanationTable(): TreeShapTable | null {
    if (this.shapTable === undefined) this.shapTable = TreeShapTable.of(this.nodes);
    return this.shapTable;
  }
}
