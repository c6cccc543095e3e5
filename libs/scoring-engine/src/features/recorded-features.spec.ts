import { featureDeclarations } from './feature-catalogue';
import { featuresFromRecord, recordedFeatures } from './recorded-features';

describe('recorded features', () => {
  const declared = featureDeclarations('transaction');
  const byType = (type: string) => declared.find((declaration) => declaration.type === type)!.name;

  it('leaves out zeros and false, and keeps nulls, strings and every other value', () => {
    expect(recordedFeatures({ a: 0, b: false, c: null, d: '', e: 'GBR', f: 2.5, g: true, h: -1 })).toEqual({ c: null, d: '', e: 'GBR', f: 2.5, g: true, h: -1 });
  });

  it('gives back the whole vector: a declared feature left out was its type’s zero', () => {
    const [int, double, bool] = [byType('int'), byType('double'), byType('bool')];
    const vector = Object.fromEntries(declared.map((declaration) => [declaration.name, declaration.type === 'string' ? null : 1]));
    Object.assign(vector, { [int]: 0, [double]: 0, [bool]: false });
    const recorded = { ...recordedFeatures(vector), modelScore: 40, decisionReason: 'the model' };

    expect(recorded).not.toHaveProperty(int);
    expect(featuresFromRecord('transaction', recorded)).toEqual({ ...vector, modelScore: 40, decisionReason: 'the model' });
  });

  it('leaves a string feature that was not recorded null', () => {
    const string = byType('string');
    expect(featuresFromRecord('transaction', {})[string]).toBeNull();
  });
});
