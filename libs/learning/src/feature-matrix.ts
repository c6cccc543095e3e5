/**
 * The types a feature can have, as the scoring engine's catalogue declares them (`FeatureType` of
 * `@ringfence/scoring-engine`). Declared again here rather than imported: the scoring engine will
 * run these models, and a domain lib must not depend on the lib that depends on it.
 */
export type FeatureType = 'bool' | 'int' | 'double' | 'string';

/** One feature a model reads: its name in the feature vector and its declared type. */
export interface FeatureColumn {
  name: string;
  type: FeatureType;
}

/** A feature vector as the scoring engine computes it; null when a feature could not be computed. */
export type FeatureRecord = Readonly<Record<string, number | boolean | string | null | undefined>>;

/**
 * Rows × features as 32-bit floats, column-major (feature `f` of row `r` at `f * rowCount + r`):
 * training reads one feature over many rows at a time, and a million rows of 230 features take
 * 0.9 GB here against several GB as JavaScript objects. NaN marks a missing value.
 */
export interface FeatureMatrix {
  readonly rowCount: number;
  readonly featureNames: readonly string[];
  readonly values: Float32Array;
}

/** Rows with their labels (1 positive, 0 negative). */
export interface LabelledRows {
  matrix: FeatureMatrix;
  labels: Uint8Array;
}

export interface FeatureMatrixOptions {
  /**
   * Turns a row as stored into the whole vector the decision saw. A decision event records its
   * features without the zeros (`recordedFeatures`), so an absent feature there means 0 or
   * false, not missing: pass the scoring engine's `featuresFromRecord` (bound to the checkpoint)
   * for rows read from decision events. Without it, rows must be complete vectors, and an absent
   * feature counts as missing like null.
   */
  completeRow?: (row: FeatureRecord) => FeatureRecord;
}

/**
 * The features a model can read: booleans and numbers. String features (an e-mail domain, a
 * country) are left out: a tree would need a category encoding learnt per account with its own
 * storage and unseen-value rules, and the catalogue already turns what they mean into numbers and
 * flags (domain age, disposable domain, country mismatch).
 */
export function numericFeatures(schema: readonly FeatureColumn[]): FeatureColumn[] {
  return schema.filter((column) => column.type !== 'string');
}

/**
 * One value as the model reads it: booleans as 0/1, numbers as they are, NaN for missing (null,
 * absent, or not finite). A string where the schema declares a number is a caller's bug, refused
 * with the feature's name rather than read as missing.
 */
export function featureValue(name: string, value: number | boolean | string | null | undefined): number {
  if (value === null || value === undefined) return Number.NaN;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  throw new TypeError(`feature ${name}: a string (${JSON.stringify(value)}) where a number or boolean was declared`);
}

/** The matrix of `rows` for the schema's numeric features (string features are skipped). */
export function buildFeatureMatrix(schema: readonly FeatureColumn[], rows: readonly FeatureRecord[], options: FeatureMatrixOptions = {}): FeatureMatrix {
  const columns = numericFeatures(schema);
  const rowCount = rows.length;
  const values = new Float32Array(rowCount * columns.length);
  for (let row = 0; row < rowCount; row += 1) {
    const record = options.completeRow ? options.completeRow(rows[row]) : rows[row];
    for (let feature = 0; feature < columns.length; feature += 1) {
      const name = columns[feature].name;
      values[feature * rowCount + row] = featureValue(name, record[name]);
    }
  }
  return { rowCount, featureNames: columns.map((column) => column.name), values };
}

/**
 * One record as a model's input vector, in `featureNames`' order. Float32 like the training
 * matrix, so a value compares with a split threshold exactly as it did in training. `into` lets a
 * caller reuse one vector across predictions.
 */
export function featureVector(featureNames: readonly string[], record: FeatureRecord, into: Float32Array = new Float32Array(featureNames.length)): Float32Array {
  for (let feature = 0; feature < featureNames.length; feature += 1) {
    const name = featureNames[feature];
    into[feature] = featureValue(name, record[name]);
  }
  return into;
}

/** The rows `rowIndices` of `matrix`, in that order, as a new matrix. */
export function selectRows(matrix: FeatureMatrix, rowIndices: ArrayLike<number>): FeatureMatrix {
  const rowCount = rowIndices.length;
  const featureCount = matrix.featureNames.length;
  const values = new Float32Array(rowCount * featureCount);
  for (let feature = 0; feature < featureCount; feature += 1) {
    const from = feature * matrix.rowCount;
    const to = feature * rowCount;
    for (let row = 0; row < rowCount; row += 1) values[to + row] = matrix.values[from + rowIndices[row]];
  }
  return { rowCount, featureNames: matrix.featureNames, values };
}

/** Row `row` of `matrix` as a vector (for explaining or scoring a training example). */
export function matrixRow(matrix: FeatureMatrix, row: number, into: Float32Array = new Float32Array(matrix.featureNames.length)): Float32Array {
  for (let feature = 0; feature < matrix.featureNames.length; feature += 1) into[feature] = matrix.values[feature * matrix.rowCount + row];
  return into;
}
