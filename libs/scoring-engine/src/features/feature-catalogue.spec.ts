import { CHECKPOINTS } from '@ringfence/contracts';
import { CALIBRATION_CASES } from '../test-support/calibration-cases';
import { featureInputs } from '../test-support/feature-inputs.factory';
import { SCORE_MODEL } from '../model/score-model';
import { FEATURE_CATALOGUE, computeFeatures, featureDeclarations } from './feature-catalogue';
import { ALL_CHECKPOINTS, type FeatureType, type FeatureValue } from './feature-definition';

/** Whether a computed value is what its declared type promises (null: not computable). */
function hasDeclaredType(value: FeatureValue, type: FeatureType): boolean {
  if (value === null) return true;
  switch (type) {
    case 'bool':
      return typeof value === 'boolean';
    case 'int':
      return Number.isSafeInteger(value);
    case 'double':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
  }
}

/** Every checkpoint's inputs with everything the calibration cases send, and with nothing at all. */
const SAMPLE_INPUTS = [
  ...CALIBRATION_CASES.map((item) => item.inputs),
  ...ALL_CHECKPOINTS.map((checkpoint) => featureInputs({ checkpoint, network: null })),
];

describe('feature catalogue', () => {
  it('names every checkpoint of the contracts, in their order', () => {
    expect([...ALL_CHECKPOINTS]).toEqual([...CHECKPOINTS]);
  });

  it('declares each feature once, with a meaning and at least one checkpoint', () => {
    const names = FEATURE_CATALOGUE.map((feature) => feature.name);
    expect(new Set(names).size).toBe(names.length);
    for (const feature of FEATURE_CATALOGUE) {
      expect(feature.description.length).toBeGreaterThan(20);
      expect(feature.checkpoints.length).toBeGreaterThan(0);
    }
  });

  it('computes exactly the declared features of a checkpoint, each of its declared type or null', () => {
    for (const inputs of SAMPLE_INPUTS) {
      const values = computeFeatures(inputs);
      const declared = featureDeclarations(inputs.checkpoint);
      expect(Object.keys(values)).toEqual(declared.map((feature) => feature.name));
      for (const { name, type } of declared) {
        if (!hasDeclaredType(values[name], type)) throw new Error(`${inputs.checkpoint}: ${name} is declared ${type} but computed ${JSON.stringify(values[name])}`);
      }
    }
  });

  it('computes the same vector twice from the same inputs (no state across events)', () => {
    for (const inputs of SAMPLE_INPUTS) expect(computeFeatures(inputs)).toEqual(computeFeatures(inputs));
  });

  it('declares every feature without its computation, for the rules and the docs', () => {
    expect(featureDeclarations().map((feature) => Object.keys(feature).sort())).toEqual(
      FEATURE_CATALOGUE.map(() => ['checkpoints', 'description', 'name', 'type']),
    );
    expect(featureDeclarations('payout').map((feature) => feature.name)).toContain('payoutSupplierFirstSeen');
    expect(featureDeclarations('customer').map((feature) => feature.name)).not.toContain('payoutSupplierFirstSeen');
  });

  it('weighs only catalogue features, at checkpoints that compute them (a term for every checkpoint counts where its feature is)', () => {
    for (const term of SCORE_MODEL) {
      const feature = FEATURE_CATALOGUE.find((candidate) => candidate.name === term.feature);
      if (!feature) throw new Error(`the model weighs ${term.feature}, which the catalogue does not have`);
      if (term.checkpoints !== ALL_CHECKPOINTS) for (const checkpoint of term.checkpoints) expect(feature.checkpoints).toContain(checkpoint);
    }
  });
});
