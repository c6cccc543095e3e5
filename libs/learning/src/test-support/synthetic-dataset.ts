import type { FeatureColumn, FeatureMatrix } from '../feature-matrix';
import { seededRandom } from '../seeded-random';

/**
 * What decides the synthetic labels:
 * - `additive`: each of a few features pushes the log-odds up or down on its own (a linear model's
 *   home ground);
 * - `interaction`: the sign of `signalA × signalB` (XOR of their signs) decides most of it, which
 *   no linear model of the raw features can express.
 */
export type SyntheticSignal = 'additive' | 'interaction';

export interface SyntheticDatasetOptions {
  rows: number;
  seed: number;
  signal: SyntheticSignal;
  /** Features unrelated to the label. */
  noiseFeatures: number;
  /** The fraction of `ipRisk` values that are missing. */
  missingRate: number;
}

export interface SyntheticDataset {
  schema: FeatureColumn[];
  matrix: FeatureMatrix;
  labels: Uint8Array;
  /** Event times in ms, increasing with the row index (so a time-ordered split is a row split). */
  eventTimes: Float64Array;
  /** The log-odds the labels were drawn from. */
  trueMargins: Float64Array;
}

/** A seeded dataset with a known signal, shaped like fraud features: counters mostly zero, flags mostly false, some values missing. */
export function syntheticDataset(overrides: Partial<SyntheticDatasetOptions> = {}): SyntheticDataset {
  const options: SyntheticDatasetOptions = { rows: 5_000, seed: 7, signal: 'additive', noiseFeatures: 5, missingRate: 0.1, ...overrides };
  const random = seededRandom(options.seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const schema: FeatureColumn[] = [
    { name: 'signalA', type: 'double' },
    { name: 'signalB', type: 'double' },
    { name: 'newDevice', type: 'bool' },
    { name: 'cardCount24h', type: 'int' },
    { name: 'ipRisk', type: 'double' },
    ...Array.from({ length: options.noiseFeatures }, (_, index): FeatureColumn => ({ name: `noise${index}`, type: index % 2 === 0 ? 'double' : 'int' })),
  ];
  const { rows } = options;
  const values = new Float32Array(rows * schema.length);
  const labels = new Uint8Array(rows);
  const eventTimes = new Float64Array(rows);
  const trueMargins = new Float64Array(rows);
  const set = (feature: number, row: number, value: number) => {
    values[feature * rows + row] = value;
  };
  for (let row = 0; row < rows; row += 1) {
    const signalA = random() * 2 - 1;
    const signalB = random() * 2 - 1;
    const newDevice = random() < 0.1 ? 1 : 0;
    const cardCount24h = random() < 0.85 ? 0 : 1 + Math.floor(-Math.log(1 - random()) * 2);
    const ipRiskMissing = random() < options.missingRate;
    const ipRisk = random();
    set(0, row, signalA);
    set(1, row, signalB);
    set(2, row, newDevice);
    set(3, row, cardCount24h);
    set(4, row, ipRiskMissing ? Number.NaN : ipRisk);
    for (let noise = 0; noise < options.noiseFeatures; noise += 1) {
      set(5 + noise, row, noise % 2 === 0 ? normal() : random() < 0.9 ? 0 : Math.floor(random() * 5));
    }
    const margin =
      options.signal === 'additive'
        ? -3.5 + 4 * signalA + 2 * newDevice + 0.8 * Math.min(cardCount24h, 4) + (ipRiskMissing ? 1 : 2 * (ipRisk - 0.5))
        : -2.5 + (signalA * signalB > 0 ? 4 : -1) * Math.min(1, 4 * Math.abs(signalA * signalB)) + 1.5 * newDevice;
    trueMargins[row] = margin;
    labels[row] = random() < 1 / (1 + Math.exp(-margin)) ? 1 : 0;
    eventTimes[row] = Date.UTC(2025, 0, 1) + row * 60_000;
  }
  return { schema, matrix: { rowCount: rows, featureNames: schema.map((column) => column.name), values }, labels, eventTimes, trueMargins };
}
