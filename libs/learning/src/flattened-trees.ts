import type { RegressionTree } from './regression-tree';

/**
 * An ensemble's trees concatenated into one set of parallel typed arrays, children as absolute
 * indices, so a walk over a few hundred trees touches no object. Built once per model and read
 * by both the prediction (`GradientBoostedTrees.predictMargin`) and the explanation table
 * (`TreeShapTable`), so the copy is made and held once. The per-tree arrays it is copied from
 * stay the model's source (the document, the covers, the recursive TreeSHAP).
 *
 * Trees keep their order and nodes their order within a tree, so a child still comes after its
 * parent (the explanation table's single pass relies on it). A leaf's children are not
 * meaningful (nothing reads them: every walk stops at a LEAF).
 */
export class FlattenedTrees {
  /** The node each tree starts at (its root; its nodes follow up to the next tree's root). */
  readonly roots: Int32Array;
  /** Per node of every tree, the arrays of `RegressionTree` with the same meanings; children are absolute indices. */
  readonly splitFeature: Int32Array;
  readonly threshold: Float64Array;
  readonly defaultLeft: Uint8Array;
  readonly leftChild: Int32Array;
  readonly rightChild: Int32Array;
  readonly leafValue: Float64Array;

  constructor(readonly trees: readonly RegressionTree[]) {
    const nodeCount = trees.reduce((sum, tree) => sum + tree.splitFeature.length, 0);
    this.roots = new Int32Array(trees.length);
    this.splitFeature = new Int32Array(nodeCount);
    this.threshold = new Float64Array(nodeCount);
    this.defaultLeft = new Uint8Array(nodeCount);
    this.leftChild = new Int32Array(nodeCount);
    this.rightChild = new Int32Array(nodeCount);
    this.leafValue = new Float64Array(nodeCount);
    let offset = 0;
    trees.forEach((tree, index) => {
      this.roots[index] = offset;
      this.splitFeature.set(tree.splitFeature, offset);
      this.threshold.set(tree.threshold, offset);
      this.defaultLeft.set(tree.defaultLeft, offset);
      this.leafValue.set(tree.leafValue, offset);
      for (let node = 0; node < tree.splitFeature.length; node += 1) {
        this.leftChild[offset + node] = offset + tree.leftChild[node];
        this.rightChild[offset + node] = offset + tree.rightChild[node];
      }
      offset += tree.splitFeature.length;
    });
  }

  get nodeCount(): number {
    return this.splitFeature.length;
  }

  get byteLength(): number {
    return this.roots.byteLength + this.splitFeature.byteLength + this.threshold.byteLength + this.defaultLeft.byteLength + this.leftChild.byteLength + this.rightChild.byteLength + this.leafValue.byteLength;
  }
}
