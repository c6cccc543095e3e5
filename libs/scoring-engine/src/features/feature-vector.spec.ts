import { scoreFeatures } from '../model/score-model';
import { CALIBRATION_CASES } from '../test-support/calibration-cases';
import { featureInputs } from '../test-support/feature-inputs.factory';
import { computeFeatureVector, featureDeclarations } from './feature-catalogue';
import { FeatureVector } from './feature-vector';
import { recordedFeatures } from './recorded-features';

describe(FeatureVector.name, () => {
  it('holds every feature its checkpoint declares, in catalogue order, and reads each by name', () => {
    const vector = computeFeatureVector(featureInputs({ checkpoint: 'payout', subjectKind: 'supplier' }));
    const declared = featureDeclarations('payout').map((declaration) => declaration.name);

    expect(vector.layout.names).toEqual(declared);
    expect(vector.values).toHaveLength(declared.length);
    expect(Object.keys(vector.toRecord())).toEqual(declared);
    for (const [position, name] of declared.entries()) expect(vector.get(name)).toBe(vector.values[position]);
  });

  it('has no value for a feature its checkpoint does not compute, which a null feature has', () => {
    const vector = computeFeatureVector(featureInputs({ checkpoint: 'customer' }));

    expect(vector.has('refundToOrderRatio')).toBe(false);
    expect(vector.get('refundToOrderRatio')).toBeUndefined();
    expect(vector.has('emailDomain')).toBe(true);
    expect(vector.get('emailDomain')).toBeNull();
  });

  it('builds its record once', () => {
    const vector = computeFeatureVector(featureInputs());

    expect(vector.toRecord()).toBe(vector.toRecord());
  });

  it.each(CALIBRATION_CASES.map((calibration) => [calibration.name, calibration]))('records and scores as its record does: %s', (_name, { inputs }) => {
    const vector = computeFeatureVector(inputs);
    const record = vector.toRecord();

    // The decision event's bytes: the same properties in the same order.
    expect(JSON.stringify(recordedFeatures(vector))).toBe(JSON.stringify(recordedFeatures(record)));
    expect(scoreFeatures(vector, inputs.checkpoint)).toEqual(scoreFeatures(record, inputs.checkpoint));
  });
});
