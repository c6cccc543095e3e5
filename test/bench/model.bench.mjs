// The model's costs (libs/learning, issue 13): training gradient-boosted trees on a million
// examples of ~230 mostly-zero features, and scoring and explaining one example from a plain
// feature record.
// Run: `npm run bench:model` (builds first). Env: BENCH_ROWS (1000000), BENCH_TREES (300, early
// stopping may end sooner), BENCH_INFERENCE_RUNS (5 runs of 2,000 records each), BENCH_LOGISTIC
// (1: also train the logistic regression), BENCH_SEED (42).
// The data: 15 dense continuous features, 60 counters (non-zero in 10 % of rows), 140 flags
// (3 %), 15 continuous features missing in 30 % of rows; the log-odds add some of each and an
// interaction, for a positive rate near 5 %.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const { trainScoringModel, numericFeatures, featureValue, seededRandom, rocAuc } = require(join(root, 'dist/libs/learning/src/index.js'));

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const TREES = Number(process.env.BENCH_TREES ?? 300);
const INFERENCE_RUNS = Number(process.env.BENCH_INFERENCE_RUNS ?? 5);
const RECORDS_PER_RUN = 2_000;
const random = seededRandom(Number(process.env.BENCH_SEED ?? 42));

const GROUPS = [
  { prefix: 'dense', count: 15, type: 'double', draw: () => random() * 2 - 1 },
  { prefix: 'counter', count: 60, type: 'int', draw: () => (random() < 0.1 ? 1 + Math.floor(random() * 6) : 0) },
  { prefix: 'flag', count: 140, type: 'bool', draw: () => random() < 0.03 },
  { prefix: 'sometimes', count: 15, type: 'double', draw: () => (random() < 0.3 ? null : random()) },
];
const schema = GROUPS.flatMap(({ prefix, count, type }) => Array.from({ length: count }, (_, index) => ({ name: `${prefix}${index}`, type })));
const features = numericFeatures(schema);

/** One example as the scoring engine's record (zeros and false included: a complete vector). */
function record() {
  const values = {};
  for (const { prefix, count, draw } of GROUPS) for (let index = 0; index < count; index += 1) values[`${prefix}${index}`] = draw();
  return values;
}
function logOdds(values) {
  let margin = -4.2 + 1.2 * (values.dense0 + values.dense1 - values.dense2) + (values.dense3 * values.dense4 > 0 ? 0.8 : -0.8);
  for (let index = 0; index < 5; index += 1) margin += 0.3 * values[`counter${index}`];
  for (let index = 0; index < 10; index += 1) margin += values[`flag${index}`] ? 1 : 0;
  margin += values.sometimes0 === null ? 0.7 : values.sometimes0;
  return margin;
}

let started = performance.now();
const values = new Float32Array(ROWS * features.length);
const labels = new Uint8Array(ROWS);
const eventTimes = new Float64Array(ROWS);
const trueLogOdds = new Float64Array(ROWS);
for (let row = 0; row < ROWS; row += 1) {
  const example = record();
  for (let feature = 0; feature < features.length; feature += 1) values[feature * ROWS + row] = featureValue(features[feature].name, example[features[feature].name]);
  trueLogOdds[row] = logOdds(example);
  labels[row] = random() < 1 / (1 + Math.exp(-trueLogOdds[row])) ? 1 : 0;
  eventTimes[row] = Date.UTC(2025, 0, 1) + row * 1_000;
}
const generateMs = performance.now() - started;
let nonZero = 0;
for (let index = 0; index < values.length; index += 1) if (values[index] !== 0) nonZero += 1;
const request = { algorithm: 'gradient-boosted-trees', features, matrix: { rowCount: ROWS, featureNames: features.map((column) => column.name), values }, labels, eventTimes, boosting: { trees: TREES } };

// ---- Training, through the same pipeline the worker runs (splits, binning, trees, calibration, metrics). ----
let firstTreeAt = 0;
started = performance.now();
const trees = trainScoringModel(request, (done) => {
  if (done === 1) firstTreeAt = performance.now();
});
const trainMs = performance.now() - started;
const treeCount = trees.model.predictor.trees.length;
const setupMs = firstTreeAt - started;

let regression = null;
if (process.env.BENCH_LOGISTIC === '1') {
  started = performance.now();
  const result = trainScoringModel({ ...request, algorithm: 'logistic-regression' });
  regression = { trainSeconds: +((performance.now() - started) / 1000).toFixed(1), holdout: rounded(result.metrics) };
}

// ---- Inference from a plain feature record: vector, margin, calibration, score; and the explanation. ----
const records = Array.from({ length: RECORDS_PER_RUN }, record);
// Explanations read a table of every leaf's TreeSHAP weights, built once per loaded model.
started = performance.now();
const explanationTable = trees.model.predictor.explanationTable();
const tableMs = performance.now() - started;
const vector = new Float32Array(features.length);
const scoreMicros = [];
const explainMicros = [];
let checksum = 0;
for (let run = 0; run < INFERENCE_RUNS + 1; run += 1) {
  started = performance.now();
  for (const example of records) checksum += trees.model.scoreOf(trees.model.vectorOf(example, vector));
  const scoreRun = ((performance.now() - started) * 1000) / RECORDS_PER_RUN;
  started = performance.now();
  for (const example of records.slice(0, 200)) checksum += trees.model.explain(trees.model.vectorOf(example, vector), 5).score;
  const explainRun = ((performance.now() - started) * 1000) / 200;
  // The first run warms the JIT up.
  if (run > 0) {
    scoreMicros.push(scoreRun);
    explainMicros.push(explainRun);
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const nodes = trees.model.predictor.trees.reduce((sum, tree) => sum + tree.splitFeature.length, 0);
const maxDepth = Math.max(...trees.model.predictor.trees.map((tree) => depthOf(tree)));

function depthOf(tree, node = 0) {
  return tree.splitFeature[node] === -1 ? 0 : 1 + Math.max(depthOf(tree, tree.leftChild[node]), depthOf(tree, tree.rightChild[node]));
}
function rounded(metrics) {
  return Object.fromEntries(Object.entries(metrics).map(([key, value]) => [key, Number.isInteger(value) ? value : +value.toFixed(4)]));
}

console.log(
  JSON.stringify(
    {
      data: { rows: ROWS, features: features.length, nonZeroShare: +(nonZero / values.length).toFixed(3), positives: labels.reduce((sum, label) => sum + label, 0), generateSeconds: +(generateMs / 1000).toFixed(1) },
      gradientBoostedTrees: {
        trainSeconds: +(trainMs / 1000).toFixed(1),
        note: 'splits by time, binning, trees (early stopping on the validation 10 %), isotonic calibration, holdout metrics',
        setupSecondsBeforeFirstTree: +(setupMs / 1000).toFixed(1),
        trees: treeCount,
        treesRequested: TREES,
        secondsPerTree: +((trainMs - setupMs) / 1000 / treeCount).toFixed(3),
        trainingRowsPerSecond: Math.round(trees.trainingExamples / (trainMs / 1000)),
        nodes,
        maxDepth,
        holdout: rounded(trees.metrics),
        // Rows are in time order, so the holdout is the last 20 %: the AUC of the log-odds the labels were drawn from.
        holdoutAucOfTrueLogOdds: +rocAuc(trueLogOdds.subarray(ROWS - trees.metrics.examples), labels.subarray(ROWS - trees.metrics.examples)).toFixed(4),
      },
      ...(regression ? { logisticRegression: regression } : {}),
      inferenceMicrosPerRecord: {
        note: `median of ${INFERENCE_RUNS} runs of ${RECORDS_PER_RUN} records, after a warm-up run; a record of ${features.length} features to a 0–100 score`,
        score: +median(scoreMicros).toFixed(2),
        scoreRuns: scoreMicros.map((micros) => +micros.toFixed(2)),
        explainTreeShap: +median(explainMicros).toFixed(1),
        explainTreeShapRuns: explainMicros.map((micros) => +micros.toFixed(1)),
        explanationTable: explanationTable === null ? 'not tabled: the recursive algorithm' : { buildMs: Math.round(tableMs), megabytes: +(explanationTable.byteLength / 2 ** 20).toFixed(1) },
      },
      checksum,
    },
    null,
    2,
  ),
);
