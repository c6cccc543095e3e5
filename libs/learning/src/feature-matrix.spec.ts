import { type FeatureColumn, type FeatureRecord, buildFeatureMatrix, featureVector, matrixRow, numericFeatures, selectRows } from './feature-matrix';

const column = (overrides: Partial<FeatureColumn> = {}): FeatureColumn => ({ name: 'amount', type: 'double', ...overrides });
const SCHEMA: FeatureColumn[] = [column(), column({ name: 'newDevice', type: 'bool' }), column({ name: 'emailDomain', type: 'string' }), column({ name: 'cardCount24h', type: 'int' })];

describe(buildFeatureMatrix.name, () => {
  it('lays rows out column by column, booleans as 0/1, skipping string features', () => {
    const rows: FeatureRecord[] = [
      { amount: 12.5, newDevice: true, emailDomain: 'example.com', cardCount24h: 3 },
      { amount: 7, newDevice: false, emailDomain: 'example.org', cardCount24h: 0 },
    ];
    const matrix = buildFeatureMatrix(SCHEMA, rows);
    expect(matrix.featureNames).toEqual(['amount', 'newDevice', 'cardCount24h']);
    expect(Array.from(matrix.values)).toEqual([12.5, 7, 1, 0, 3, 0]);
  });

  it('marks null, absent and non-finite values missing (NaN)', () => {
    const matrix = buildFeatureMatrix(SCHEMA, [{ amount: null, cardCount24h: Number.POSITIVE_INFINITY }]);
    expect(Array.from(matrix.values)).toEqual([Number.NaN, Number.NaN, Number.NaN]);
  });

  it("completes recorded rows first, so a recorded vector's omitted zeros stay zeros", () => {
    const zeros: FeatureRecord = { amount: 0, newDevice: false, cardCount24h: 0 };
    const matrix = buildFeatureMatrix(SCHEMA, [{ amount: 5, newDevice: null }], { completeRow: (row) => ({ ...zeros, ...row }) });
    expect(Array.from(matrix.values)).toEqual([5, Number.NaN, 0]);
  });

  it('refuses a string where a number was declared, naming the feature', () => {
    expect(() => buildFeatureMatrix(SCHEMA, [{ amount: '12' }])).toThrow('feature amount: a string ("12")');
  });
});

describe(featureVector.name, () => {
  it("reads a record in the model's feature order as float32, like the training matrix", () => {
    const vector = featureVector(['cardCount24h', 'amount', 'newDevice'], { amount: 0.1, newDevice: true, cardCount24h: null });
    expect(vector).toBeInstanceOf(Float32Array);
    expect(Array.from(vector)).toEqual([Number.NaN, Math.fround(0.1), 1]);
  });
});

describe(selectRows.name, () => {
  it('keeps the chosen rows in the order given, and matrixRow reads one back', () => {
    const matrix = buildFeatureMatrix(numericFeatures(SCHEMA), [{ amount: 1, newDevice: true, cardCount24h: 10 }, { amount: 2, newDevice: false, cardCount24h: 20 }, { amount: 3, newDevice: true, cardCount24h: 30 }]);
    const selected = selectRows(matrix, [2, 0]);
    expect(Array.from(selected.values)).toEqual([3, 1, 1, 1, 30, 10]);
    expect(Array.from(matrixRow(selected, 1))).toEqual([1, 1, 10]);
  });
});
