import { matrixRow } from './feature-matrix';
import { type ModelDocument, ModelDocumentError, modelDocument, modelFromDocument, modelFromJson } from './model-document';
import type { ScoringModel } from './scoring-model';
import type { SyntheticDataset } from './test-support/synthetic-dataset';
import { trainedRegressionModel, trainedTreeModel } from './test-support/trained-models.factory';

function expectSamePredictions(original: ScoringModel, loaded: ScoringModel, dataset: SyntheticDataset): void {
  const vector = new Float32Array(dataset.matrix.featureNames.length);
  for (let row = 0; row < 500; row += 1) {
    matrixRow(dataset.matrix, row, vector);
    expect(loaded.predictor.predictMargin(vector)).toBe(original.predictor.predictMargin(vector));
    expect(loaded.probabilityOf(vector)).toBe(original.probabilityOf(vector));
    expect(loaded.explain(vector)).toEqual(original.explain(vector));
  }
}

describe(modelFromJson.name, () => {
  it('loads a tree model from its JSON with identical predictions and explanations', () => {
    const { model, dataset } = trainedTreeModel({ missingRate: 0.3 });
    const loaded = modelFromJson(JSON.stringify(modelDocument(model)));
    expect(loaded.featureNames).toEqual(model.featureNames);
    expectSamePredictions(model, loaded, dataset);
  });

  it('loads a logistic regression from its JSON with identical predictions and explanations', () => {
    const { model, dataset } = trainedRegressionModel();
    expectSamePredictions(model, modelFromJson(JSON.stringify(modelDocument(model))), dataset);
  });

  it('refuses text that is not JSON', () => {
    expect(() => modelFromJson('{"format":')).toThrow(ModelDocumentError);
  });
});

describe(modelFromDocument.name, () => {
  const { model } = trainedTreeModel({ rows: 1_000 }, { trees: 3 });
  /** A fresh copy of the valid document, changed by `change`. */
  const broken = (change: (document: ModelDocument & Record<string, unknown>) => void): unknown => {
    const document = JSON.parse(JSON.stringify(modelDocument(model)));
    change(document);
    return document;
  };
  const treeOf = (document: ModelDocument) => {
    if (document.predictor.kind !== 'gradient-boosted-trees') throw new Error('not a tree model');
    return document.predictor.trees[0];
  };
  const firstSplit = (document: ModelDocument) => treeOf(document).splitFeature.findIndex((feature) => feature >= 0);

  it.each<[string, (document: ModelDocument & Record<string, unknown>) => void, string]>([
    ['another format', (document) => (document.format = 'other' as never), '$.format: expected "ringfence.model"'],
    ['a newer version', (document) => (document.version = 3 as never), '$.version: this code reads versions 1 and 2, got 3'],
    ['a scale with PREVENT below REVIEW', (document) => (document.scale = { review: 40, prevent: 30 }), '$.scale'],
    ['a string feature', (document) => (document.features[0].type = 'string'), '$.features[0].type'],
    ['a feature listed twice', (document) => (document.features[1].name = document.features[0].name), 'is listed twice'],
    ['an unknown predictor', (document) => ((document.predictor as { kind: string }).kind = 'neural-network'), '$.predictor.kind'],
    ['a missing array', (document) => delete (treeOf(document) as Partial<ReturnType<typeof treeOf>>).leafValue, '$.predictor.trees[0].leafValue: expected an array, got nothing'],
    ['a NaN written as null', (document) => (treeOf(document).leafValue[0] = null as never), '$.predictor.trees[0].leafValue[0]: expected a finite number, got null'],
    ['arrays of different lengths', (document) => treeOf(document).threshold.pop(), 'values for'],
    ['a split on a feature it does not have', (document) => (treeOf(document).splitFeature[firstSplit(document)] = 99), 'is neither a feature index'],
    ['a child pointing back up (a cycle)', (document) => (treeOf(document).leftChild[firstSplit(document)] = 0), 'is not a node after'],
    ['counts that do not add up', (document) => (treeOf(document).coverCount[0] += 1), "a node's count must be its children's sum"],
    ['a decreasing calibration', (document) => ((document.calibration as { probabilities: number[] }).probabilities.reverse()), '$.calibration.probabilities'],
    ['bin bounds for other features', (document) => (document.predictor as { binUpperBounds: number[][] }).binUpperBounds.pop(), '$.predictor.binUpperBounds'],
  ])('refuses %s, naming the field', (_name, change, message) => {
    expect(() => modelFromDocument(broken(change))).toThrow(ModelDocumentError);
    expect(() => modelFromDocument(broken(change))).toThrow(message);
  });

  it('accepts the unchanged document, its scale included', () => {
    const loaded = modelFromDocument(broken((document) => (document.scale = { review: 7, prevent: 31 })));
    expect(loaded.featureNames).toEqual(model.featureNames);
    expect(loaded.scale).toEqual({ review: 7, prevent: 31 });
  });

  it('reads a version 1 document (no scale) with the identity scale', () => {
    const loaded = modelFromDocument(broken((document) => {
      (document as { version: number }).version = 1;
      delete document.scale;
    }));
    expect(loaded.scale).toEqual({ review: 50, prevent: 80 });
  });
});
