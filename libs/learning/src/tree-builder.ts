import type { BinnedDataset } from './binned-dataset';
import { type GradientHistogram, type GradientTotals, accumulateHistogram, newHistogram, subtractHistogram } from './gradient-histogram';
import { MISSING_BIN } from './quantile-bins';
import { type SplitCandidate, type SplitParameters, findBestSplit } from './split-finder';

export interface TreeGrowthParameters extends SplitParameters {
  /** Splits from the root to the deepest leaf. */
  maxDepth: number;
  maxLeaves: number;
  /** Multiplies every leaf value (shrinkage). */
  learningRate: number;
}

/** A grown tree in bins: the trainer turns the bins into thresholds (`thresholdBin`). */
export interface GrownTree {
  splitFeature: number[];
  thresholdBin: number[];
  defaultLeft: number[];
  leftChild: number[];
  rightChild: number[];
  leafValue: number[];
  coverHessian: number[];
  coverCount: number[];
  /** Each internal node's loss reduction (for feature importance). */
  gain: number[];
}

interface OpenLeaf {
  node: number;
  /** The leaf's rows are `rowOrder[start .. end)`. */
  start: number;
  end: number;
  depth: number;
  totals: GradientTotals;
  /** Null once the leaf cannot be split: at the depth limit, or no split gains. */
  histogram: GradientHistogram | null;
  split: SplitCandidate | null;
}

/**
 * Grows trees leaf-wise (best-first, as LightGBM): the leaf whose best split gains most is split
 * next, until `maxLeaves` leaves or no split gains; `maxDepth` bounds every path. Each leaf keeps
 * its histogram until it is split; then only the smaller child's is accumulated from its rows and
 * the larger child's is the parent's minus it. One grower serves a whole training run so the
 * histograms and the row buffers are allocated once.
 */
export class TreeGrower {
  private readonly spareHistograms: GradientHistogram[] = [];
  private readonly rowOrder: Uint32Array;
  private readonly scratch: Uint32Array;

  constructor(
    private readonly dataset: BinnedDataset,
    private readonly parameters: TreeGrowthParameters,
  ) {
    this.rowOrder = new Uint32Array(dataset.rowCount);
    this.scratch = new Uint32Array(dataset.rowCount);
  }

  /** One tree fitted to the gradients and hessians of the rows `sampleRows`. */
  grow(gradients: Float64Array, hessians: Float64Array, sampleRows: Uint32Array): GrownTree {
    const { maxDepth, maxLeaves, lambda, learningRate } = this.parameters;
    const tree: GrownTree = { splitFeature: [], thresholdBin: [], defaultLeft: [], leftChild: [], rightChild: [], leafValue: [], coverHessian: [], coverCount: [], gain: [] };
    this.rowOrder.set(sampleRows);
    const rootHistogram = this.takeHistogram();
    const rootTotals = accumulateHistogram(this.dataset, this.rowOrder, 0, sampleRows.length, gradients, hessians, rootHistogram);
    const open: OpenLeaf[] = [this.openLeaf(tree, 0, sampleRows.length, 0, rootTotals, maxDepth > 0 ? rootHistogram : null)];
    if (maxDepth === 0) this.releaseHistogram(rootHistogram);
    let leafCount = 1;
    while (leafCount < maxLeaves) {
      let leaf: OpenLeaf | null = null;
      let split: SplitCandidate | null = null;
      for (const candidate of open) {
        if (candidate.split !== null && (split === null || candidate.split.gain > split.gain)) {
          leaf = candidate;
          split = candidate.split;
        }
      }
      if (leaf === null || split === null) break;
      const middle = this.partition(leaf, split);
      if (middle === leaf.start || middle === leaf.end) {
        // Rounding in a subtracted histogram can show hessian on a side with no rows left.
        leaf.split = null;
        this.releaseLeafHistogram(leaf);
        continue;
      }
      const [left, right] = this.splitLeaf(tree, leaf, split, middle, gradients, hessians);
      open.splice(open.indexOf(leaf), 1, left, right);
      leafCount += 1;
    }
    for (const leaf of open) {
      this.releaseLeafHistogram(leaf);
      tree.leafValue[leaf.node] = (-leaf.totals.gradientSum / (leaf.totals.hessianSum + lambda)) * learningRate;
    }
    return tree;
  }

  private splitLeaf(tree: GrownTree, leaf: OpenLeaf, split: SplitCandidate, middle: number, gradients: Float64Array, hessians: Float64Array): [OpenLeaf, OpenLeaf] {
    const parentHistogram = leaf.histogram;
    if (parentHistogram === null) throw new Error('a leaf with a split keeps its histogram until it is split');
    leaf.histogram = null;
    tree.splitFeature[leaf.node] = split.feature;
    tree.thresholdBin[leaf.node] = split.thresholdBin;
    tree.defaultLeft[leaf.node] = split.defaultLeft ? 1 : 0;
    tree.gain[leaf.node] = split.gain;
    const childDepth = leaf.depth + 1;
    const childrenSplit = childDepth < this.parameters.maxDepth;
    const leftIsSmaller = middle - leaf.start <= leaf.end - middle;
    const [smallStart, smallEnd] = leftIsSmaller ? [leaf.start, middle] : [middle, leaf.end];
    let smallTotals: GradientTotals;
    let smallHistogram: GradientHistogram | null = null;
    if (childrenSplit) {
      smallHistogram = this.takeHistogram();
      smallTotals = accumulateHistogram(this.dataset, this.rowOrder, smallStart, smallEnd, gradients, hessians, smallHistogram);
      subtractHistogram(parentHistogram, smallHistogram);
    } else {
      smallTotals = this.totalsOf(smallStart, smallEnd, gradients, hessians);
      this.releaseHistogram(parentHistogram);
    }
    const largeTotals = { gradientSum: leaf.totals.gradientSum - smallTotals.gradientSum, hessianSum: leaf.totals.hessianSum - smallTotals.hessianSum };
    const largeHistogram = childrenSplit ? parentHistogram : null;
    const leftTotals = leftIsSmaller ? smallTotals : largeTotals;
    const rightTotals = leftIsSmaller ? largeTotals : smallTotals;
    // Children are numbered after every node so far, so a child's index is above its parent's.
    const left = this.openLeaf(tree, leaf.start, middle, childDepth, leftTotals, leftIsSmaller ? smallHistogram : largeHistogram);
    const right = this.openLeaf(tree, middle, leaf.end, childDepth, rightTotals, leftIsSmaller ? largeHistogram : smallHistogram);
    tree.leftChild[leaf.node] = left.node;
    tree.rightChild[leaf.node] = right.node;
    return [left, right];
  }

  private openLeaf(tree: GrownTree, start: number, end: number, depth: number, totals: GradientTotals, histogram: GradientHistogram | null): OpenLeaf {
    const node = tree.splitFeature.length;
    tree.splitFeature.push(-1);
    tree.thresholdBin.push(0);
    tree.defaultLeft.push(0);
    tree.leftChild.push(-1);
    tree.rightChild.push(-1);
    tree.leafValue.push(0);
    tree.coverHessian.push(totals.hessianSum);
    tree.coverCount.push(end - start);
    tree.gain.push(0);
    const split = histogram !== null && end - start >= 2 ? findBestSplit(histogram, this.dataset.valueBinCounts, totals, this.parameters) : null;
    const leaf: OpenLeaf = { node, start, end, depth, totals, histogram, split };
    if (split === null) this.releaseLeafHistogram(leaf);
    return leaf;
  }

  /** Reorders the leaf's rows so the left child's come first (stably); returns where the right's start. */
  private partition(leaf: OpenLeaf, split: SplitCandidate): number {
    const { bins, rowCount } = this.dataset;
    const offset = split.feature * rowCount;
    const { thresholdBin, defaultLeft } = split;
    let leftEnd = leaf.start;
    let rightCount = 0;
    for (let index = leaf.start; index < leaf.end; index += 1) {
      const row = this.rowOrder[index];
      const bin = bins[offset + row];
      if (bin === MISSING_BIN ? defaultLeft : bin <= thresholdBin) this.rowOrder[leftEnd++] = row;
      else this.scratch[rightCount++] = row;
    }
    this.rowOrder.set(this.scratch.subarray(0, rightCount), leftEnd);
    return leftEnd;
  }

  private totalsOf(start: number, end: number, gradients: Float64Array, hessians: Float64Array): GradientTotals {
    let gradientSum = 0;
    let hessianSum = 0;
    for (let index = start; index < end; index += 1) {
      const row = this.rowOrder[index];
      gradientSum += gradients[row];
      hessianSum += hessians[row];
    }
    return { gradientSum, hessianSum };
  }

  private takeHistogram(): GradientHistogram {
    return this.spareHistograms.pop() ?? newHistogram(this.dataset.featureCount);
  }

  private releaseHistogram(histogram: GradientHistogram): void {
    this.spareHistograms.push(histogram);
  }

  private releaseLeafHistogram(leaf: OpenLeaf): void {
    if (leaf.histogram !== null) this.releaseHistogram(leaf.histogram);
    leaf.histogram = null;
  }
}
