import type { Calibration } from './calibration';
import { IDENTITY_SCALE, type ScoreScale, isScoreScale } from './score-scale';
import type { FeatureColumn } from './feature-matrix';
import { GradientBoostedTrees } from './gradient-boosted-trees';
import { LogisticRegression } from './logistic-regression';
import type { MarginPredictor } from './margin-predictor';
import { MAX_VALUE_BINS } from './quantile-bins';
import { LEAF, type RegressionTree } from './regression-tree';
import { ScoringModel } from './scoring-model';

export const MODEL_DOCUMENT_FORMAT = 'ringfence.model';
/** Raised whenever a change would make an older reader misread a document. */
export const MODEL_DOCUMENT_VERSION = 2;
/** Version 1 had no `scale`: it reads as the identity. */
const READABLE_VERSIONS: readonly unknown[] = [1, MODEL_DOCUMENT_VERSION];

/** A tree as the parallel arrays of `RegressionTree`, `defaultLeft` as 0/1. */
export interface TreeDocument {
  splitFeature: number[];
  threshold: number[];
  defaultLeft: number[];
  leftChild: number[];
  rightChild: number[];
  leafValue: number[];
  coverHessian: number[];
  coverCount: number[];
}

export type PredictorDocument =
  | { kind: 'gradient-boosted-trees'; baseScore: number; binUpperBounds: number[][]; trees: TreeDocument[] }
  | { kind: 'logistic-regression'; intercept: number; coefficients: number[]; means: number[]; scales: number[] };

/** A trained model as JSON: what is stored with a model version and loaded to serve it. */
export interface ModelDocument {
  format: typeof MODEL_DOCUMENT_FORMAT;
  version: typeof MODEL_DOCUMENT_VERSION | 1;
  features: FeatureColumn[];
  predictor: PredictorDocument;
  calibration: Calibration | null;
  /** Absent in version 1: the identity. */
  scale?: ScoreScale;
}

/** A document that is not a model this code can load; the message names the offending field. */
export class ModelDocumentError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`model document ${path}: ${problem}`);
    this.name = 'ModelDocumentError';
  }
}

export function modelDocument(model: ScoringModel): ModelDocument {
  return {
    format: MODEL_DOCUMENT_FORMAT,
    version: MODEL_DOCUMENT_VERSION,
    features: model.features.map(({ name, type }) => ({ name, type })),
    predictor: predictorDocument(model.predictor),
    calibration: model.calibration,
    scale: { ...model.scale },
  };
}

function predictorDocument(predictor: MarginPredictor): PredictorDocument {
  if (predictor instanceof GradientBoostedTrees) {
    return {
      kind: 'gradient-boosted-trees',
      baseScore: predictor.baseScore,
      binUpperBounds: predictor.binUpperBounds.map((bounds) => Array.from(bounds)),
      trees: predictor.trees.map((tree) => ({
        splitFeature: Array.from(tree.splitFeature),
        threshold: Array.from(tree.threshold),
        defaultLeft: Array.from(tree.defaultLeft),
        leftChild: Array.from(tree.leftChild),
        rightChild: Array.from(tree.rightChild),
        leafValue: Array.from(tree.leafValue),
        coverHessian: Array.from(tree.coverHessian),
        coverCount: Array.from(tree.coverCount),
      })),
    };
  }
  if (predictor instanceof LogisticRegression) {
    return { kind: 'logistic-regression', intercept: predictor.intercept, coefficients: Array.from(predictor.coefficients), means: Array.from(predictor.means), scales: Array.from(predictor.scales) };
  }
  throw new TypeError(`no document form for a ${predictor.kind} predictor of another class`);
}

/**
 * The model a document describes, checked whole first: every field's type, every array's length,
 * every tree's shape (children after their parent and reached once, so walking it ends; counts
 * that add up, so explanations do). A malformed document throws a ModelDocumentError naming the
 * field instead of loading a model that would score wrongly.
 */
export function modelFromDocument(document: unknown): ScoringModel {
  const root = objectAt(document, '$');
  if (root.format !== MODEL_DOCUMENT_FORMAT) throw new ModelDocumentError('$.format', `expected "${MODEL_DOCUMENT_FORMAT}", got ${describe(root.format)}`);
  if (!READABLE_VERSIONS.includes(root.version)) throw new ModelDocumentError('$.version', `this code reads versions ${READABLE_VERSIONS.join(' and ')}, got ${describe(root.version)}`);
  const features = featuresAt(root.features, '$.features');
  const featureNames = features.map((column) => column.name);
  const predictor = predictorAt(root.predictor, '$.predictor', featureNames);
  const calibration = root.calibration === null ? null : calibrationAt(root.calibration, '$.calibration');
  if (root.scale !== undefined && !isScoreScale(root.scale)) throw new ModelDocumentError('$.scale', 'expected integers 1 ≤ review ≤ prevent ≤ 100');
  return new ScoringModel(features, predictor, calibration, root.scale ?? IDENTITY_SCALE);
}

/** `modelFromDocument` of a JSON text. */
export function modelFromJson(text: string): ScoringModel {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ModelDocumentError('$', `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return modelFromDocument(document);
}

function featuresAt(value: unknown, path: string): FeatureColumn[] {
  const list = arrayAt(value, path);
  if (list.length === 0) throw new ModelDocumentError(path, 'a model reads at least one feature');
  const seen = new Set<string>();
  return list.map((item, index) => {
    const column = objectAt(item, `${path}[${index}]`);
    if (typeof column.name !== 'string' || column.name === '') throw new ModelDocumentError(`${path}[${index}].name`, `expected a non-empty string, got ${describe(column.name)}`);
    if (seen.has(column.name)) throw new ModelDocumentError(`${path}[${index}].name`, `"${column.name}" is listed twice`);
    seen.add(column.name);
    if (column.type !== 'bool' && column.type !== 'int' && column.type !== 'double') throw new ModelDocumentError(`${path}[${index}].type`, `expected "bool", "int" or "double", got ${describe(column.type)}`);
    return { name: column.name, type: column.type };
  });
}

function predictorAt(value: unknown, path: string, featureNames: readonly string[]): MarginPredictor {
  const document = objectAt(value, path);
  const featureCount = featureNames.length;
  switch (document.kind) {
    case 'gradient-boosted-trees': {
      const baseScore = finiteAt(document.baseScore, `${path}.baseScore`);
      const bounds = arrayAt(document.binUpperBounds, `${path}.binUpperBounds`);
      if (bounds.length !== featureCount) throw new ModelDocumentError(`${path}.binUpperBounds`, `${bounds.length} features' bounds for ${featureCount} features`);
      const binUpperBounds = bounds.map((item, feature) => {
        const list = numbersAt(item, `${path}.binUpperBounds[${feature}]`);
        if (list.length >= MAX_VALUE_BINS) throw new ModelDocumentError(`${path}.binUpperBounds[${feature}]`, `at most ${MAX_VALUE_BINS - 1} bounds`);
        if (list.some((bound, index) => index > 0 && !(bound > list[index - 1]))) throw new ModelDocumentError(`${path}.binUpperBounds[${feature}]`, 'bounds must increase');
        return Float64Array.from(list);
      });
      const trees = arrayAt(document.trees, `${path}.trees`).map((tree, index) => treeAt(tree, `${path}.trees[${index}]`, featureCount));
      return new GradientBoostedTrees(featureNames, baseScore, trees, binUpperBounds);
    }
    case 'logistic-regression': {
      const intercept = finiteAt(document.intercept, `${path}.intercept`);
      const [coefficients, means, scales] = (['coefficients', 'means', 'scales'] as const).map((field) => {
        const list = numbersAt(document[field], `${path}.${field}`);
        if (list.length !== featureCount) throw new ModelDocumentError(`${path}.${field}`, `${list.length} values for ${featureCount} features`);
        return Float64Array.from(list);
      });
      const badScale = scales.findIndex((scale) => !(scale > 0));
      if (badScale >= 0) throw new ModelDocumentError(`${path}.scales[${badScale}]`, 'a scale must be positive');
      return new LogisticRegression(featureNames, means, scales, coefficients, intercept);
    }
    default:
      throw new ModelDocumentError(`${path}.kind`, `expected "gradient-boosted-trees" or "logistic-regression", got ${describe(document.kind)}`);
  }
}

function treeAt(value: unknown, path: string, featureCount: number): RegressionTree {
  const document = objectAt(value, path);
  const fields = ['splitFeature', 'threshold', 'defaultLeft', 'leftChild', 'rightChild', 'leafValue', 'coverHessian', 'coverCount'] as const;
  const [splitFeature, threshold, defaultLeft, leftChild, rightChild, leafValue, coverHessian, coverCount] = fields.map((field) => numbersAt(document[field], `${path}.${field}`));
  const nodeCount = splitFeature.length;
  if (nodeCount === 0) throw new ModelDocumentError(`${path}.splitFeature`, 'a tree has at least one node');
  fields.forEach((field, index) => {
    const length = [splitFeature, threshold, defaultLeft, leftChild, rightChild, leafValue, coverHessian, coverCount][index].length;
    if (length !== nodeCount) throw new ModelDocumentError(`${path}.${field}`, `${length} values for ${nodeCount} nodes`);
  });
  const parents = new Int32Array(nodeCount).fill(-1);
  for (let node = 0; node < nodeCount; node += 1) {
    const at = (field: string) => `${path}.${field}[${node}]`;
    const feature = splitFeature[node];
    if (!Number.isInteger(feature) || feature < LEAF || feature >= featureCount) throw new ModelDocumentError(at('splitFeature'), `${feature} is neither a feature index (0–${featureCount - 1}) nor ${LEAF} (a leaf)`);
    if (!(coverCount[node] > 0)) throw new ModelDocumentError(at('coverCount'), `a node's count must be positive, got ${coverCount[node]}`);
    if (!(coverHessian[node] >= 0)) throw new ModelDocumentError(at('coverHessian'), `must be 0 or more, got ${coverHessian[node]}`);
    if (feature === LEAF) continue;
    for (const [field, children] of [['leftChild', leftChild], ['rightChild', rightChild]] as const) {
      const child = children[node];
      // Children numbered after their parent: walking down always ends.
      if (!Number.isInteger(child) || child <= node || child >= nodeCount) throw new ModelDocumentError(at(field), `${child} is not a node after ${node}`);
      if (parents[child] !== -1) throw new ModelDocumentError(at(field), `node ${child} already has parent ${parents[child]}`);
      parents[child] = node;
    }
    if (defaultLeft[node] !== 0 && defaultLeft[node] !== 1) throw new ModelDocumentError(at('defaultLeft'), `expected 0 or 1, got ${defaultLeft[node]}`);
    if (coverCount[leftChild[node]] + coverCount[rightChild[node]] !== coverCount[node]) throw new ModelDocumentError(at('coverCount'), "a node's count must be its children's sum");
  }
  const orphan = parents.findIndex((parent, node) => node > 0 && parent === -1);
  if (orphan > 0) throw new ModelDocumentError(`${path}`, `node ${orphan} is not reached from the root`);
  return {
    splitFeature: Int32Array.from(splitFeature),
    threshold: Float64Array.from(threshold),
    defaultLeft: Uint8Array.from(defaultLeft),
    leftChild: Int32Array.from(leftChild),
    rightChild: Int32Array.from(rightChild),
    leafValue: Float64Array.from(leafValue),
    coverHessian: Float64Array.from(coverHessian),
    coverCount: Float64Array.from(coverCount),
  };
}

function calibrationAt(value: unknown, path: string): Calibration {
  const document = objectAt(value, path);
  switch (document.kind) {
    case 'isotonic': {
      const margins = numbersAt(document.margins, `${path}.margins`);
      const probabilities = numbersAt(document.probabilities, `${path}.probabilities`);
      if (margins.length === 0 || margins.length !== probabilities.length) throw new ModelDocumentError(`${path}`, `${margins.length} margins and ${probabilities.length} probabilities (equal, at least one)`);
      if (margins.some((margin, index) => index > 0 && !(margin > margins[index - 1]))) throw new ModelDocumentError(`${path}.margins`, 'margins must increase');
      if (probabilities.some((probability, index) => probability < 0 || probability > 1 || (index > 0 && probability < probabilities[index - 1]))) {
        throw new ModelDocumentError(`${path}.probabilities`, 'probabilities must be in [0, 1] and never decrease');
      }
      return { kind: 'isotonic', margins, probabilities };
    }
    case 'platt':
      return { kind: 'platt', slope: finiteAt(document.slope, `${path}.slope`), intercept: finiteAt(document.intercept, `${path}.intercept`) };
    default:
      throw new ModelDocumentError(`${path}.kind`, `expected "isotonic" or "platt", got ${describe(document.kind)}`);
  }
}

function objectAt(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ModelDocumentError(path, `expected an object, got ${describe(value)}`);
  return value as Record<string, unknown>;
}

function arrayAt(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new ModelDocumentError(path, `expected an array, got ${describe(value)}`);
  return value;
}

function numbersAt(value: unknown, path: string): number[] {
  const list = arrayAt(value, path);
  const bad = list.findIndex((item) => typeof item !== 'number' || !Number.isFinite(item));
  if (bad >= 0) throw new ModelDocumentError(`${path}[${bad}]`, `expected a finite number, got ${describe(list[bad])}`);
  return list as number[];
}

function finiteAt(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ModelDocumentError(path, `expected a finite number, got ${describe(value)}`);
  return value;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
