// The learned model's proof (issue 13, docs/model.md): a simulated marketplace sent through the
// API in event time; a model trained through the API on the first 70 % of the time and activated;
// the last 30 % sent and scored live by it; its scores judged against the simulator's truth.
//
//   npm run eval:model:marketplace           (50,000 customers, 28 days, seed 7; `npm run eval:model`
//                                             runs the card-payments evaluation, card-payments.eval.mjs)
//   EVAL_CUSTOMERS=5000 EVAL_DAYS=7 EVAL_SEED=3 EVAL_FRAUD_MIX=account-takeover=40,card-testing=30 npm run eval:model:marketplace
//   EVAL_SAVE_MODEL=trees.json …  then, on another configuration,  EVAL_COMPARE_MODEL=trees.json …
//       (the trees trained here on one simulation, judged on another's decisions)
//   EVAL_SAVE_TRUTH_MODEL=truth.json …  the same with trees trained on all of this simulation's
//       decisions, labelled by its truth
//
// Every step uses the product's own tools: `ringfence simulate` writes the traffic and the truth;
// the built embedded server (`dist/`) takes the first 70 % through `ringfence import` (the public
// API, in file order, so in event time; labels and chargebacks arrive when the simulated back
// office sends them); `POST /v2/models/train {to: split}` learns from those decisions with the
// labels known by then (ADR-0012) and `…/activate` puts it in charge; the last 30 % is
// imported and each PSP transaction before authorisation is scored by it as it arrives
// (`ringfence feed export` reads the decisions back).
//
// Beside it, on the same decisions: the built-in model (no account rules are set, so its score
// is what the rules-only product answers with), and a logistic regression and trees trained here
// with the same learning code (dist/libs/learning) on the same first 70 %, labelled the way the
// API labels (a customer labelled FRAUDSTER, or with a chargeback not forgiven, by the split),
// from the label and dispute feeds read at the split.
//
// The last 30 % is judged by the truth: a payment is fraud when the simulator lists it among the
// payments no genuine cardholder authorised.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, collect, exportedLines, fileLines, readDecisions, round, splitTraffic, waitFor } from './eval-support.mjs';
import { sdkAblation } from './sdk-ablation.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const require = (await import('node:module')).createRequire(import.meta.url);
const learning = require(join(ROOT, 'dist/libs/learning/src/index.js'));
const engine = require(join(ROOT, 'dist/libs/scoring-engine/src/index.js'));
const entities = require(join(ROOT, 'dist/libs/entities/src/index.js'));

const CUSTOMERS = Number(process.env.EVAL_CUSTOMERS ?? 50_000);
const DAYS = Number(process.env.EVAL_DAYS ?? 28);
const SEED = process.env.EVAL_SEED ?? '7';
const FRAUD_RATE = process.env.EVAL_FRAUD_RATE ?? '0.02';
const FRAUD_MIX = process.env.EVAL_FRAUD_MIX;
const CONCURRENCY = process.env.EVAL_CONCURRENCY ?? '16';
const KEEP = process.env.EVAL_KEEP === '1';
// EVAL_SDK_TRAFFIC=0: the simulator sends no client SDK events (its other records are the same).
const SDK_TRAFFIC = process.env.EVAL_SDK_TRAFFIC !== '0';
const CHECKPOINT = 'pspBeforeAuth';
const THRESHOLDS = { review: 50, prevent: 80 };
const ADMIN_KEY = 'eval-admin-key-0123456789abcdef';
const START_ISO = '2026-01-05T00:00:00Z';
const START = Date.parse(START_ISO);
const DAY_MS = 86_400_000;

const work = process.env.EVAL_DIR ?? mkdtempSync(join(tmpdir(), 'ringfence-eval-'));
const dataDir = join(work, 'data');
const trafficFile = join(work, 'traffic.jsonl.gz');
const truthFile = join(work, 'truth.jsonl');
const log = (message) => process.stderr.write(`eval: ${message}\n`);
const cli = (args, env = {}) => execFileSync(process.execPath, [join(ROOT, 'bin/ringfence.js'), ...args], { env: { ...process.env, DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, ...env }, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'inherit'] });

const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const url = `https://localhost:${port}`;

log(`work directory ${work}`);
const timings = {};
const timed = async (name, step) => {
  const started = Date.now();
  const result = await step();
  timings[name] = Math.round((Date.now() - started) / 1000);
  log(`${name}: ${timings[name]} s`);
  return result;
};

// EVAL_DIR resumes a run in that directory: the traffic is not simulated nor split again, and
// `ringfence import` continues from its state file (what was answered is not sent twice).
if (!existsSync(truthFile)) await timed('simulate', () =>
  cli(['simulate', '--seed', SEED, '--customers', String(CUSTOMERS), '--days', String(DAYS), '--fraud-rate', FRAUD_RATE, ...(FRAUD_MIX ? ['--fraud-mix', FRAUD_MIX] : []), ...(SDK_TRAFFIC ? [] : ['--no-sdk-traffic']), '--start', START_ISO, '--out', trafficFile, '--truth', truthFile]),
);

// The embedded server as a user runs it; per-customer and per-account limits raised, as an
// account doing a backfill would have them raised. EVAL_RPC_TIMEOUT_MS raises RPC_TIMEOUT_MS (a
// checkpoint waits half of it for the device read model, which a loaded machine's backfill misses).
const server = spawn(process.execPath, [join(ROOT, 'dist/apps/standalone/src/main.js')], {
  env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_API_KEY: ADMIN_KEY, CUSTOMER_RATE_LIMIT_PER_MINUTE: '1000000', ACCOUNT_RATE_LIMIT_PER_MINUTE: '100000000', ...(process.env.EVAL_RPC_TIMEOUT_MS ? { RPC_TIMEOUT_MS: process.env.EVAL_RPC_TIMEOUT_MS } : {}) },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stopServer = () => new Promise((resolve) => (server.exitCode !== null ? resolve() : (server.once('exit', resolve), server.kill('SIGTERM'))));
try {
  const key = await waitFor(() => (existsSync(join(dataDir, 'bootstrap-key')) ? readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim() : null), 60_000);
  const ca = await waitFor(() => (existsSync(join(dataDir, 'tls', 'cert.pem')) ? readFileSync(join(dataDir, 'tls', 'cert.pem')) : null), 60_000);
  const api = (method, path, body) => call({ url, method, path, body, key, ca });
  await waitFor(async () => ((await api('GET', '/health/ready').catch(() => ({ status: 0 }))).status === 200 ? true : null), 120_000);

  const split = START + Math.round(0.7 * DAYS * DAY_MS);
  const parts = [join(work, 'first-70.jsonl'), join(work, 'last-30.jsonl')];
  const [firstPart, lastPart] = parts.every((part) => existsSync(part)) ? parts : await timed('split the traffic at 70 % of the time', async () => {
        await splitTraffic(fileLines(trafficFile, { gunzip: true }), parts, (time) => (time < split ? 0 : 1));
        return parts;
      });
  await timed('import the first 70 %', () => cli(['--url', url, 'import', firstPart, '--key', key, '--concurrency', CONCURRENCY]));
  // What the back office had sent by the split: accepted before the first 70 % was all in (the
  // import's state file says when; a resumed run reads it back).
  const splitAcceptedBy = Date.parse(JSON.parse(readFileSync(`${firstPart}.import-state.json`, 'utf8')).files[firstPart].updatedAt);

  // A resumed run keeps the model it trained and activated (the last 30 % may be scored by it already).
  const active = (await api('GET', `/v2/models?checkpoint=${CHECKPOINT}`)).body.data.models.find((model) => model.active);
  const apiModel = active ?? await timed('train through the API', async () => {
    const started = await api('POST', '/v2/models/train', { checkpoint: CHECKPOINT, to: split });
    if (started.status !== 202) throw new Error(`train answered ${started.status}: ${JSON.stringify(started.body)}`);
    // Training runs off the request path (asynchronous by design): its end is polled for.
    return waitFor(async () => {
      const model = (await api('GET', `/v2/models/${started.body.modelId}`)).body;
      return model.status === 'training' ? null : model;
    }, 3_600_000, 2_000);
  });
  log(`API model ${apiModel.modelId}: ${apiModel.status} ${JSON.stringify(apiModel.metrics ?? apiModel.error)}`);
  // The SDK comparison (sdk-ablation.mjs) trains its own trees, so it goes on without the API's model, judging every decision after the split.
  const apiReady = apiModel.status === 'ready';
  if (!apiReady && process.env.EVAL_SDK_ABLATION === '0') throw new Error(`the model did not train: ${apiModel.error}`);
  if (apiReady && !apiModel.active) {
    const activated = await api('POST', `/v2/models/${apiModel.modelId}/activate`);
    if (activated.status !== 200) throw new Error(`activate answered ${activated.status}`);
  }

  await timed('import the last 30 %', () => cli(['--url', url, 'import', lastPart, '--key', key, '--concurrency', CONCURRENCY]));
  const truth = await readTruth(truthFile);
  const decisions = await readDecisions(exportTopic('ringfence.decision.transaction.scored.v1'), {
    checkpoint: CHECKPOINT,
    featuresOf: (record) => engine.featuresFromRecord('transaction', record),
    isFraud: (transactionId) => truth.fraudulentTransactions.has(transactionId),
  });
  const before = decisions.filter((decision) => decision.timestamp < split);
  const after = decisions.filter((decision) => decision.timestamp >= split && (!apiReady || decision.modelVersion === apiModel.modelId));
  const atSplit = async (topic) => (await collect(exportTopic(topic))).filter((line) => JSON.parse(line).acceptedAt <= splitAcceptedBy);
  const labelled = labelledAtSplit(await atSplit('ringfence.label.customer.updated.v1'), await atSplit('ringfence.ingest.dispute.updated.v1'), before);
  log(`${decisions.length} ${CHECKPOINT} decisions: ${before.length} before the split (${before.filter((row) => labelled(row)).length} labelled fraud by then), ${after.length} scored by the model (${count(after, 'fraud')} fraud)`);

  const truthLabels = Uint8Array.from(after, (row) => (row.fraud ? 1 : 0));
  const results = {};
  const live = after.map((row) => row.modelScore);
  if (apiReady) results['learned trees, trained and scoring through the API'] = evaluate(live, live, truthLabels);
  const builtIn = after.map((row) => engine.scoreFeatures(row.features, 'transaction', THRESHOLDS).score);
  results['built-in model (rules-only baseline)'] = evaluate(builtIn, builtIn, truthLabels);
  const features = learning.numericFeatures(engine.featureDeclarations('transaction'));
  const training = {
    features,
    matrix: learning.buildFeatureMatrix(features, before.map((row) => row.features)),
    labels: Uint8Array.from(before, (row) => (labelled(row) ? 1 : 0)),
    eventTimes: Float64Array.from(before, (row) => row.timestamp),
    thresholds: THRESHOLDS,
  };
  const scoredMatrix = learning.buildFeatureMatrix(features, after.map((row) => row.features));
  // Ranked by the 0–100 score the product answers with, as the other rows are.
  const scoresOf = (model, matrix) => Array.from(model.predictor.predictMargins(matrix), (margin) => model.scoreOfProbability(learning.calibratedProbability(model.calibration, margin)));
  for (const algorithm of ['logistic-regression', 'gradient-boosted-trees']) {
    const trained = await timed(`train ${algorithm} here`, () => learning.trainScoringModel({ ...training, algorithm }));
    const scores = scoresOf(trained.model, scoredMatrix);
    results[`${algorithm}, trained here on the same decisions`] = evaluate(scores, scores, truthLabels);
    // EVAL_SAVE_MODEL: these trees, with how they were made, for another run's EVAL_COMPARE_MODEL.
    if (algorithm === 'gradient-boosted-trees' && process.env.EVAL_SAVE_MODEL) {
      const provenance = { configuration: { customers: CUSTOMERS, days: DAYS, seed: SEED, fraudRate: Number(FRAUD_RATE), fraudMix: FRAUD_MIX ?? 'default' }, examples: before.length, positives: training.labels.reduce((sum, label) => sum + label, 0), metrics: trained.metrics, judgedByTruth: results[`${algorithm}, trained here on the same decisions`] };
      writeFileSync(process.env.EVAL_SAVE_MODEL, `${JSON.stringify({ provenance, model: learning.modelDocument(trained.model) })}\n`);
      log(`saved the trees to ${process.env.EVAL_SAVE_MODEL}`);
    }
  }
  // The same trees with and without the client SDK's features (sdk-ablation.mjs); EVAL_SDK_ABLATION=0 skips them.
  let sdkFeatureContributions;
  if (process.env.EVAL_SDK_ABLATION !== '0') {
    const provenance = { configuration: { customers: CUSTOMERS, days: DAYS, seed: SEED, fraudRate: Number(FRAUD_RATE), fraudMix: FRAUD_MIX ?? 'default' } };
    const ablation = await sdkAblation({ learning, features, before, after, decisions, labelled, thresholds: THRESHOLDS, evaluate, scoresOf, timed, log, provenance });
    Object.assign(results, ablation.results);
    sdkFeatureContributions = ablation.contributions;
  }
  // EVAL_SAVE_TRUTH_MODEL: trees trained on every decision of this simulation, labelled by its
  // truth (a payment no genuine cardholder authorised), as a model shipped for accounts without
  // labels of their own would be made; another run judges it with EVAL_COMPARE_MODEL.
  if (process.env.EVAL_SAVE_TRUTH_MODEL) {
    const everything = {
      features,
      matrix: learning.buildFeatureMatrix(features, decisions.map((row) => row.features)),
      labels: Uint8Array.from(decisions, (row) => (row.fraud ? 1 : 0)),
      eventTimes: Float64Array.from(decisions, (row) => row.timestamp),
      thresholds: THRESHOLDS,
    };
    const trained = await timed('train trees on the truth of every decision', () => learning.trainScoringModel({ ...everything, algorithm: 'gradient-boosted-trees' }));
    const provenance = { configuration: { customers: CUSTOMERS, days: DAYS, seed: SEED, fraudRate: Number(FRAUD_RATE), fraudMix: FRAUD_MIX ?? 'default' }, labels: 'truth', examples: decisions.length, positives: count(decisions, 'fraud'), metrics: trained.metrics };
    writeFileSync(process.env.EVAL_SAVE_TRUTH_MODEL, `${JSON.stringify({ provenance, model: learning.modelDocument(trained.model) })}\n`);
    log(`saved the truth-trained trees to ${process.env.EVAL_SAVE_TRUTH_MODEL}: ${JSON.stringify(trained.metrics)}`);
  }
  // EVAL_COMPARE_MODEL: a model trained on another simulation scores the same decisions: would a
  // model trained on simulated traffic serve an account with no labels (docs/model.md)? Also
  // judged: the higher of its score and the built-in model's, each decision.
  if (process.env.EVAL_COMPARE_MODEL) {
    const other = learning.modelFromDocument(JSON.parse(readFileSync(process.env.EVAL_COMPARE_MODEL, 'utf8')).model);
    const scores = scoresOf(other, learning.buildFeatureMatrix(other.features, after.map((row) => row.features)));
    const name = process.env.EVAL_COMPARE_MODEL.split('/').pop();
    results[`trees trained on another simulation (${name})`] = evaluate(scores, scores, truthLabels);
    const higher = scores.map((score, index) => Math.max(score, builtIn[index]));
    results[`the higher of those trees' and the built-in model's scores (${name})`] = evaluate(higher, higher, truthLabels);
  }

  const report = {
    configuration: { customers: CUSTOMERS, days: DAYS, seed: SEED, fraudRate: Number(FRAUD_RATE), fraudMix: FRAUD_MIX ?? 'default', sdkTraffic: SDK_TRAFFIC, checkpoint: CHECKPOINT },
    decisions: { total: decisions.length, beforeSplit: before.length, labelledFraudBeforeSplit: training.labels.reduce((sum, label) => sum + label, 0), scoredByModel: after.length, fraudScoredByModel: count(after, 'fraud') },
    apiModel: { modelId: apiModel.modelId, status: apiModel.status, examples: apiModel.examples, positives: apiModel.positives, metrics: apiModel.metrics, error: apiModel.error },
    results,
    sdkFeatureContributions,
    timings,
  };
  writeFileSync(join(work, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n\n${table(results)}\n`);
} finally {
  await stopServer();
  if (!KEEP && !process.env.EVAL_DIR) rmSync(work, { recursive: true, force: true });
}

/** ROC AUC and average precision of the ranking, precision at PREVENT and recall at REVIEW of the 0–100 scores. */
function evaluate(ranking, scores, labels) {
  const positives = labels.reduce((sum, label) => sum + label, 0);
  return {
    auc: round(learning.rocAuc(Float64Array.from(ranking), labels)),
    averagePrecision: round(learning.averagePrecision(Float64Array.from(ranking), labels)),
    precisionAtPrevent: round(learning.metricsAtThreshold(scores, labels, THRESHOLDS.prevent).precision),
    recallAtReview: round(learning.metricsAtThreshold(scores, labels, THRESHOLDS.review).recall),
    flaggedAtPrevent: scores.filter((score) => score >= THRESHOLDS.prevent).length,
    positives,
  };
}

function table(rows) {
  const lines = ['| model | ROC AUC | average precision | precision at PREVENT (≥ 80) | recall at REVIEW (≥ 50) |', '|---|---|---|---|---|'];
  for (const [name, metrics] of Object.entries(rows)) lines.push(`| ${name} | ${metrics.auc} | ${metrics.averagePrecision} | ${metrics.precisionAtPrevent} (${metrics.flaggedAtPrevent} flagged) | ${metrics.recallAtReview} |`);
  return lines.join('\n');
}

/** The fraudulent payments (no genuine cardholder authorised them) of the simulator's truth. */
async function readTruth(file) {
  const fraudulentTransactions = new Set();
  for await (const line of fileLines(file)) {
    if (!line) continue;
    for (const transactionId of JSON.parse(line).transactionIds ?? []) fraudulentTransactions.add(transactionId);
  }
  return { fraudulentTransactions };
}

/**
 * Whether a decision's customer was fraud as the API would have labelled it at the split
 * (ADR-0012): its current PAYMENT_FRAUD label FRAUDSTER, or a dispute of one of its payments
 * not forgiven, from the label and dispute feeds as they stood then.
 */
function labelledAtSplit(labelLines, disputeLines, decisions) {
  const fraudsters = new Set();
  for (const line of labelLines) {
    const { subjectKind, subjectId, category, review } = JSON.parse(line).payload;
    if (subjectKind !== 'customer' || category !== 'PAYMENT_FRAUD') continue;
    if (review === 'FRAUDSTER') fraudsters.add(subjectId);
    else fraudsters.delete(subjectId);
  }
  const customerOf = new Map(decisions.map((decision) => [decision.transactionId, decision.customerId]));
  const disputes = new Map();
  for (const line of disputeLines) {
    const dispute = JSON.parse(line).payload.dispute;
    if (dispute?.transactionId !== undefined) disputes.set(dispute.disputeId, dispute);
  }
  for (const dispute of disputes.values()) {
    const customerId = customerOf.get(dispute.transactionId);
    if (customerId !== undefined && !entities.isChargebackForgiven(dispute)) fraudsters.add(customerId);
  }
  return (decision) => fraudsters.has(decision.customerId);
}

/** A feed topic's events as they stand now, written to a file (a run's decisions are gigabytes), read back line by line. */
function exportTopic(topic) {
  return exportedLines(join(work, `${topic}.${Date.now()}.jsonl`), (out) =>
    execFileSync(process.execPath, [join(ROOT, 'bin/ringfence.js'), '--url', url, 'feed', 'export', topic], {
      env: { ...process.env, DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY },
      stdio: ['ignore', out, 'inherit'],
    }),
  );
}


function count(rows, field) {
  return rows.filter((row) => row[field]).length;
}



