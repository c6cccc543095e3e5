// The learned model judged on card-payment traffic (issue 33): the kind of simulated data set the
// payment-fraud handbooks publish (libs/simulator/README.md, "Card payments": customers and
// terminals on a grid, one card each, large-amount, compromised-terminal and stolen-card fraud),
// sent through the API as a PSP sends it, each fraudulent payment disputed days later in event time.
//
//   npm run eval:model                                       (this script, after a build)
//   node test/eval/card-payments.eval.mjs                    (the same on an existing build: build
//                                                             it first with `flock /tmp/ringfence-dist.lock npm run build`)
//   EVAL_CARD_SCENARIOS=1 node test/eval/card-payments.eval.mjs      (the first scenario only)
//   EVAL_CARD_CUSTOMERS=5000 EVAL_CARD_TERMINALS=10000 node test/eval/card-payments.eval.mjs
//                                                            (the outside tester's size: about 175,000
//                                                             payments a scenario; see "Time" below)
//
// For each scenario, on a fresh embedded server (the built `dist/`, copied into the work directory
// first, so a build by someone else during the run changes nothing):
//   1. `ringfence simulate --scenario card-payments` writes its traffic and its truth (one line per
//      fraudulent payment);
//   2. days 0–27 go through `ringfence import` (the public API, in event time: payments as
//      `POST /psp/transaction?checkpoint=pspBeforeAuth`, disputes as `POST /psp/dispute` when the
//      cardholder sends them);
//   3. `POST /v2/models/train {checkpoint: pspBeforeAuth, to: end of day 21}` (a week's gap for
//      late disputes), GET /v2/models/:id until it has trained, then `…/activate`;
//   4. days 28–34 go through `ringfence import`: each payment is scored by that model as it arrives;
//   5. the decisions are read back (`ringfence feed export`), and the score each answered
//      (`data.score`, the decision's modelScore) is judged against the truth on days 28–34: ROC
//      AUC, average precision, precision at PREVENT (score ≥ 80) and recall at REVIEW (≥ 50).
// Beside it, on the same recorded features of the same payments:
//   - what answers with no model activated: the built-in model (docs/scoring.md) or the shipped
//     default model where it scores higher; and the built-in model alone;
//   - a logistic regression and gradient-boosted trees fitted here with the product's learning
//     code (dist/libs/learning) on the examples the API's training kept (the decisions before the
//     end of day 21, less those it left out as not labelled yet: its `labelMaturity`), labelled by
//     transaction: positive when that payment's dispute (not forgiven) had been received when
//     training began. So the logistic regression here is the API's baseline, trained on the same
//     examples and judged on the scored week (the API keeps its baseline's model to itself). The
//     training's own report (GET /v2/models/:id: both candidates' held-out metrics) is printed
//     beside them.
// Generalisation: the trees and the logistic regression fitted here on the first scenario are
// judged on every other scenario's days 28–34 (each scenario has its own seed, fraud mix, fraud
// rate and dispute delay; the models API has no export, so the first scenario's API model itself
// cannot be carried over).
//
// Configuration (environment):
//   EVAL_CARD_CUSTOMERS (2500), EVAL_CARD_TERMINALS (twice the customers), EVAL_CARD_PAYMENTS_PER_DAY (1),
//   EVAL_CARD_DAYS (35), EVAL_CARD_TRAIN_DAYS (22: `to` is the end of day 21), EVAL_CARD_SCORE_FROM_DAY (28):
//     the same for every scenario;
//   EVAL_CARD_SCENARIOS: how many of the default scenarios to run (1–3), or a JSON array of
//     {name, seed, fraudMix, fraudRate, disputeDelayDays} (fraudMix as `pattern=weight,…`);
//   EVAL_CARD_SEED, EVAL_CARD_FRAUD_MIX, EVAL_CARD_FRAUD_RATE, EVAL_CARD_DISPUTE_DELAY_DAYS: override the
//     first scenario's;
//   EVAL_CONCURRENCY (16): requests in flight during the imports; EVAL_KEEP=1 keeps the work
//     directory; EVAL_REPORT: where report.json goes (default: the system's temporary directory).
//
// Time: the import is most of it, a request per payment (2026-11-29, this 2-core machine shared
// with other work: about 470 requests a second for days 0–27, 380–530 for days 28–34; a training
// through the API 18–19 s). The default, three scenarios of 2,500 customers, 5,000 terminals and 35
// days (about 88,000 payments each), took 13 minutes in all. The tester's size, 5,000 customers and
// 10,000 terminals (about 176,000 payments a scenario), is twice the requests: expect about half an
// hour for the three (not measured), or EVAL_CARD_SCENARIOS=1 for the first alone. Disk: a
// scenario's embedded database is about 2 GB at the default size, removed once it is judged.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'node:https';
import { call, collect, exportedLines, fileLines, readDecisions, round, splitTraffic, waitFor } from './eval-support.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'ringfence-card-eval-'));
// A private copy of the build: a long run keeps the code it started with.
const DIST = join(work, 'dist');
if (!existsSync(join(ROOT, 'dist/apps/standalone/src/main.js'))) throw new Error('dist/ is not built: run `npm run build` first');
cpSync(join(ROOT, 'dist'), DIST, { recursive: true });
// The copy finds the packages where the build does (a require walks up from the file to a node_modules).
symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
const require = (await import('node:module')).createRequire(join(DIST, 'index.js'));
const learning = require(join(DIST, 'libs/learning/src/index.js'));
const engine = require(join(DIST, 'libs/scoring-engine/src/index.js'));
const entities = require(join(DIST, 'libs/entities/src/index.js'));

const DAY_MS = 86_400_000;
const START_ISO = '2026-01-05T00:00:00Z';
const START = Date.parse(START_ISO);
const CHECKPOINT = 'pspBeforeAuth';
const THRESHOLDS = { review: 50, prevent: 80 };
const ADMIN_KEY = 'eval-admin-key-0123456789abcdef';
const CUSTOMERS = Number(process.env.EVAL_CARD_CUSTOMERS ?? 2500);
const TERMINALS = Number(process.env.EVAL_CARD_TERMINALS ?? 2 * CUSTOMERS);
const PAYMENTS_PER_DAY = Number(process.env.EVAL_CARD_PAYMENTS_PER_DAY ?? 1);
const DAYS = Number(process.env.EVAL_CARD_DAYS ?? 35);
const TRAIN_DAYS = Number(process.env.EVAL_CARD_TRAIN_DAYS ?? 22);
const SCORE_FROM_DAY = Number(process.env.EVAL_CARD_SCORE_FROM_DAY ?? 28);
const CONCURRENCY = process.env.EVAL_CONCURRENCY ?? '16';
const KEEP = process.env.EVAL_KEEP === '1';
const REPORT = process.env.EVAL_REPORT ?? join(tmpdir(), 'ringfence-card-payments-report.json');
if (!(TRAIN_DAYS > 0 && TRAIN_DAYS <= SCORE_FROM_DAY && SCORE_FROM_DAY < DAYS)) throw new Error('need 0 < EVAL_CARD_TRAIN_DAYS <= EVAL_CARD_SCORE_FROM_DAY < EVAL_CARD_DAYS');

const DEFAULT_SCENARIOS = [
  { name: 'scenario 1: default mix, 1 %', seed: '1', fraudMix: 'large-amount=10,compromised-terminal=50,stolen-card=40', fraudRate: 0.01, disputeDelayDays: 7 },
  { name: 'scenario 2: terminal-heavy, 0.5 %', seed: '2', fraudMix: 'large-amount=5,compromised-terminal=85,stolen-card=10', fraudRate: 0.005, disputeDelayDays: 7 },
  { name: 'scenario 3: stolen-card-heavy, 2 %, disputes 10 days late', seed: '3', fraudMix: 'large-amount=5,compromised-terminal=15,stolen-card=80', fraudRate: 0.02, disputeDelayDays: 10 },
];
const scenarios = scenarioList(process.env.EVAL_CARD_SCENARIOS);
const first = scenarios[0];
first.seed = process.env.EVAL_CARD_SEED ?? first.seed;
first.fraudMix = process.env.EVAL_CARD_FRAUD_MIX ?? first.fraudMix;
first.fraudRate = Number(process.env.EVAL_CARD_FRAUD_RATE ?? first.fraudRate);
first.disputeDelayDays = Number(process.env.EVAL_CARD_DISPUTE_DELAY_DAYS ?? first.disputeDelayDays);

const log = (message) => process.stderr.write(`eval: ${message}\n`);
log(`work directory ${work}`);
const cli = (args, dataDir, stdio = ['ignore', 'pipe', 'inherit']) =>
  execFileSync(process.execPath, [join(DIST, 'apps/cli/src/main.js'), ...args], { env: { ...process.env, DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY }, maxBuffer: 1 << 30, stdio });
const features = learning.numericFeatures(engine.featureDeclarations('transaction'));
const shippedModel = loadShippedModel();

const runs = [];
try {
  for (const scenario of scenarios) runs.push(await runScenario(scenario));
  const generalisation = judgeAcross(runs);
  const report = {
    configuration: { customers: CUSTOMERS, terminals: TERMINALS, paymentsPerDay: PAYMENTS_PER_DAY, days: DAYS, trainedOnDecisionsBefore: dayIso(TRAIN_DAYS), importedBeforeTraining: `days 0–${SCORE_FROM_DAY - 1}`, judged: `days ${SCORE_FROM_DAY}–${DAYS - 1}`, checkpoint: CHECKPOINT },
    scenarios: runs.map(({ report: scenarioReport }) => scenarioReport),
    generalisation,
  };
  writeFileSync(REPORT, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${markdown(report)}\n\nreport: ${REPORT}\n`);
} finally {
  if (!KEEP) rmSync(work, { recursive: true, force: true });
}

function scenarioList(text) {
  if (text === undefined || text === '') return DEFAULT_SCENARIOS.map((scenario) => ({ ...scenario }));
  if (/^[1-3]$/.test(text)) return DEFAULT_SCENARIOS.slice(0, Number(text)).map((scenario) => ({ ...scenario }));
  const list = JSON.parse(text);
  if (!Array.isArray(list) || list.length === 0) throw new Error('EVAL_CARD_SCENARIOS: a number from 1 to 3, or a JSON array of scenarios');
  return list.map((scenario, index) => ({ ...DEFAULT_SCENARIOS[0], name: `scenario ${index + 1}`, ...scenario }));
}

/** One scenario: simulate, import, train and activate through the API, import the rest, judge. */
async function runScenario(scenario) {
  const directory = join(work, `scenario-${scenario.seed}-${runs.length + 1}`);
  const dataDir = join(directory, 'data');
  mkdirSync(dataDir, { recursive: true });
  const timings = {};
  const timed = async (name, step) => {
    const started = Date.now();
    const result = await step();
    timings[name] = Math.round((Date.now() - started) / 1000);
    log(`${scenario.name}: ${name}: ${timings[name]} s`);
    return result;
  };
  const trafficFile = join(directory, 'traffic.jsonl');
  const truthFile = join(directory, 'truth.jsonl');
  const generated = await timed('simulate', () =>
    JSON.parse(
      cli(
        ['simulate', '--scenario', 'card-payments', '--seed', scenario.seed, '--customers', String(CUSTOMERS), '--terminals', String(TERMINALS), '--payments-per-day', String(PAYMENTS_PER_DAY), '--days', String(DAYS), '--fraud-rate', String(scenario.fraudRate), '--fraud-mix', scenario.fraudMix, '--dispute-delay-days', String(scenario.disputeDelayDays), '--start', START_ISO, '--out', trafficFile, '--truth', truthFile],
        dataDir,
      ).toString(),
    ),
  );
  const scoreFrom = START + SCORE_FROM_DAY * DAY_MS;
  const end = START + DAYS * DAY_MS;
  const trainTo = START + TRAIN_DAYS * DAY_MS;
  const [before, after] = [join(directory, 'days-before-scoring.jsonl'), join(directory, 'days-scored.jsonl')];
  const split = await splitTraffic(fileLines(trafficFile), [before, after], (time) => (time < scoreFrom ? 0 : time < end ? 1 : -1));
  log(`${scenario.name}: ${generated.payments} payments, ${generated.fraudulentPayments} fraudulent (${JSON.stringify(generated.fraudByPattern)}); ${split[0]} requests before day ${SCORE_FROM_DAY}, ${split[1]} after`);

  const server = await startServer(dataDir);
  try {
    const { api, url, key } = server;
    const importFile = (file) => {
      const started = Date.now();
      const summary = JSON.parse(cli(['--url', url, 'import', file, '--key', key, '--concurrency', CONCURRENCY], dataDir).toString());
      const rejected = summary.rejected?.count ?? 0;
      if (rejected > 0) throw new Error(`import of ${file} rejected ${rejected} requests: ${JSON.stringify(summary.rejected)}`);
      return { requests: summary.sent, requestsPerSecond: Math.round(summary.sent / ((Date.now() - started) / 1000)) };
    };
    const importedBefore = await timed(`import days 0–${SCORE_FROM_DAY - 1}`, () => importFile(before));
    // The disputes the API held when training began: the transaction-level labels of the models fitted here.
    const disputesAtTraining = await collect(exportTopic(url, dataDir, 'ringfence.ingest.dispute.updated.v1'));

    const apiModel = await timed('train through the API', async () => {
      const started = await api('POST', '/v2/models/train', { checkpoint: CHECKPOINT, to: trainTo });
      if (started.status !== 202) throw new Error(`train answered ${started.status}: ${JSON.stringify(started.body)}`);
      // Training runs off the request path (asynchronous by design): its end is polled for.
      return waitFor(async () => {
        const model = (await api('GET', `/v2/models/${started.body.modelId}`)).body;
        return model.status === 'training' ? null : model;
      }, 3_600_000, 1_000);
    });
    log(`${scenario.name}: API model ${apiModel.modelId}: ${apiModel.status}, ${apiModel.examples} examples, ${apiModel.positives} positives, ${JSON.stringify(apiModel.metrics ?? apiModel.error)}`);
    if (apiModel.status === 'ready') {
      const activated = await api('POST', `/v2/models/${apiModel.modelId}/activate`);
      if (activated.status !== 200) throw new Error(`activate answered ${activated.status}`);
    }
    const importedAfter = await timed(`import days ${SCORE_FROM_DAY}–${DAYS - 1}`, () => importFile(after));

    const truth = await readTruth(truthFile);
    const decisions = await readDecisions(exportTopic(url, dataDir, 'ringfence.decision.transaction.scored.v1'), {
      checkpoint: CHECKPOINT,
      featuresOf: (record) => engine.featuresFromRecord('transaction', record),
      isFraud: (transactionId) => truth.patternOf.has(transactionId),
    });
    // The examples the API's training kept: before `to`, less the payments it left out as not labelled yet (its labelMaturity).
    const labelledUpTo = apiModel.labelMaturity?.cutoff ?? Number.POSITIVE_INFINITY;
    const trainingDecisions = decisions.filter((decision) => decision.timestamp < trainTo && decision.timestamp <= labelledUpTo);
    const judged = decisions.filter((decision) => decision.timestamp >= scoreFrom && decision.timestamp < end);
    const scoredByApiModel = judged.filter((decision) => decision.modelVersion === apiModel.modelId).length;
    const disputed = disputedTransactions(disputesAtTraining);
    const trainingLabels = Uint8Array.from(trainingDecisions, (decision) => (disputed.has(decision.transactionId) ? 1 : 0));
    const truthLabels = Uint8Array.from(judged, (decision) => (decision.fraud ? 1 : 0));

    const results = {};
    if (apiModel.status === 'ready') {
      const live = judged.map((decision) => (decision.modelVersion === apiModel.modelId ? decision.modelScore : Number.NaN));
      results['learned model, trained and scoring through the API (data.score)'] = evaluate(live, truthLabels);
    }
    const builtIn = judged.map((decision) => engine.scoreFeatures(decision.features, 'transaction', THRESHOLDS).score);
    const unactivated = shippedModel ? judged.map((decision, index) => Math.max(builtIn[index], shippedModel.scoreOf(shippedModel.vectorOf(decision.features)))) : builtIn;
    results['no model activated: built-in or shipped default model, the higher'] = evaluate(unactivated, truthLabels);
    results['built-in model alone'] = evaluate(builtIn, truthLabels);
    const training = { features, matrix: learning.buildFeatureMatrix(features, trainingDecisions.map((decision) => decision.features)), labels: trainingLabels, eventTimes: Float64Array.from(trainingDecisions, (decision) => decision.timestamp), thresholds: THRESHOLDS };
    const judgedMatrix = learning.buildFeatureMatrix(features, judged.map((decision) => decision.features));
    const fitted = {};
    for (const [algorithm, name] of [
      ['logistic-regression', 'logistic regression fitted here (transaction-level labels)'],
      ['gradient-boosted-trees', 'trees fitted here (transaction-level labels)'],
    ]) {
      fitted[algorithm] = await timed(`fit ${algorithm} here`, () => learning.trainScoringModel({ ...training, algorithm }));
      results[name] = evaluate(scoresOf(fitted[algorithm].model, judgedMatrix), truthLabels);
    }
    const fraudJudged = judged.filter((decision) => decision.fraud);
    const report = {
      scenario: { ...scenario, customers: CUSTOMERS, terminals: TERMINALS, paymentsPerDay: PAYMENTS_PER_DAY, days: DAYS },
      traffic: { payments: generated.payments, fraudulentPayments: generated.fraudulentPayments, fraudByPattern: generated.fraudByPattern, compromisedTerminals: generated.compromisedTerminals, compromisedCards: generated.compromisedCards },
      decisions: {
        total: decisions.length,
        training: trainingDecisions.length,
        trainingDisputedByThen: trainingLabels.reduce((sum, label) => sum + label, 0),
        trainingFraudByTruth: trainingDecisions.filter((decision) => decision.fraud).length,
        judged: judged.length,
        judgedFraud: fraudJudged.length,
        judgedFraudByPattern: countBy(fraudJudged, (decision) => truth.patternOf.get(decision.transactionId)),
        judgedScoredByApiModel: scoredByApiModel,
      },
      apiModel: pick(apiModel, ['modelId', 'status', 'algorithm', 'examples', 'positives', 'positivesByReason', 'labelMaturity', 'metrics', 'candidates', 'error']),
      fittedHere: Object.fromEntries(Object.entries(fitted).map(([algorithm, trained]) => [algorithm, trained.metrics])),
      results,
      imports: { beforeScoring: importedBefore, scored: importedAfter },
      timings,
    };
    return { report, judged, truthLabels, fitted };
  } finally {
    await server.stop();
    // A scenario's database is about 2 GB at the default size: gone once judged, unless kept.
    if (!KEEP) rmSync(directory, { recursive: true, force: true });
  }
}

/** The first scenario's models, fitted here, judged on every other scenario's scored days. */
function judgeAcross(completed) {
  const [source, ...others] = completed;
  if (source === undefined) return [];
  return others.map((target) => {
    const results = {};
    for (const [algorithm, name] of [
      ['logistic-regression', 'logistic regression fitted on scenario 1'],
      ['gradient-boosted-trees', 'trees fitted on scenario 1'],
    ]) {
      const model = source.fitted[algorithm].model;
      results[name] = evaluate(scoresOf(model, learning.buildFeatureMatrix(model.features, target.judged.map((decision) => decision.features))), target.truthLabels);
    }
    const own = target.report.results;
    const ownRows = pick(own, ['learned model, trained and scoring through the API (data.score)', 'trees fitted here (transaction-level labels)']);
    return { scenario: target.report.scenario.name, results: { ...results, ...Object.fromEntries(Object.entries(ownRows).map(([name, metrics]) => [`${name}: the scenario's own`, metrics])) } };
  });
}

function pick(object, keys) {
  return Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));
}

/** The 0–100 score a model fitted here answers for each row of a matrix, as the product would. */
function scoresOf(model, matrix) {
  return Array.from(model.predictor.predictMargins(matrix), (margin) => model.scoreOfProbability(learning.calibratedProbability(model.calibration, margin)));
}

/** The default model the product ships for the checkpoint, as the scoring service loads it (none: undefined). */
function loadShippedModel() {
  const file = join(DIST, 'libs/services/scoring/default-models', `${CHECKPOINT}.json`);
  return existsSync(file) ? learning.modelFromDocument(JSON.parse(readFileSync(file, 'utf8')).model) : undefined;
}

/**
 * ROC AUC and average precision of the ranking, precision at PREVENT and recall at REVIEW of the
 * 0–100 scores. A payment the judged model did not score (NaN: answered degraded, or before the
 * activation reached scoring) counts as scored 0, and their number is reported.
 */
function evaluate(rawScores, labels) {
  const unscored = rawScores.filter((score) => !Number.isFinite(score)).length;
  const scores = rawScores.map((score) => (Number.isFinite(score) ? score : 0));
  return {
    auc: round(learning.rocAuc(Float64Array.from(scores), labels)),
    averagePrecision: round(learning.averagePrecision(Float64Array.from(scores), labels)),
    precisionAtPrevent: round(learning.metricsAtThreshold(scores, labels, THRESHOLDS.prevent).precision),
    recallAtReview: round(learning.metricsAtThreshold(scores, labels, THRESHOLDS.review).recall),
    flaggedAtPrevent: scores.filter((score) => score >= THRESHOLDS.prevent).length,
    reviewed: scores.filter((score) => score >= THRESHOLDS.review).length,
    positives: labels.reduce((sum, label) => sum + label, 0),
    payments: labels.length,
    ...(unscored > 0 ? { unscored } : {}),
  };
}

function markdown(report) {
  const header = ['| model | ROC AUC | average precision | precision at PREVENT (≥ 80) | recall at REVIEW (≥ 50) |', '|---|---|---|---|---|'];
  const rows = (results) => Object.entries(results).map(([name, metrics]) => `| ${name} | ${metrics.auc} | ${metrics.averagePrecision} | ${metrics.precisionAtPrevent} (${metrics.flaggedAtPrevent} flagged) | ${metrics.recallAtReview} (${metrics.reviewed} reviewed) |`);
  const parts = [];
  for (const scenario of report.scenarios) {
    const { decisions, apiModel } = scenario;
    parts.push(
      `### ${scenario.scenario.name} (seed ${scenario.scenario.seed}, \`${scenario.scenario.fraudMix}\`, disputes ${scenario.scenario.disputeDelayDays} days late)`,
      '',
      `${scenario.traffic.payments} payments, ${scenario.traffic.fraudulentPayments} fraudulent (${Object.entries(scenario.traffic.fraudByPattern).map(([pattern, count]) => `${pattern} ${count}`).join(', ')}). ` +
        `Training: ${decisions.training} decisions before ${report.configuration.trainedOnDecisionsBefore}, ${decisions.trainingDisputedByThen} disputed by then (${decisions.trainingFraudByTruth} fraud by the truth); ` +
        `the API's model: ${apiModel.status}${apiModel.algorithm ? ` (serving: ${apiModel.algorithm})` : ''}, ${apiModel.examples} examples, ${apiModel.positives} positives ${JSON.stringify(apiModel.positivesByReason ?? {})}, ${apiModel.error ?? `held-out ${heldOut(apiModel)}`}. ` +
        `Judged: ${decisions.judged} payments of ${report.configuration.judged}, ${decisions.judgedFraud} fraud (${Object.entries(decisions.judgedFraudByPattern).map(([pattern, count]) => `${pattern} ${count}`).join(', ')}), ${decisions.judgedScoredByApiModel} scored by the API's model.`,
      '',
      ...header,
      ...rows(scenario.results),
      '',
    );
  }
  if (report.generalisation.length > 0) {
    parts.push('### Generalisation: models fitted on scenario 1, judged on the others', '');
    for (const target of report.generalisation) parts.push(`**${target.scenario}**`, '', ...header, ...rows(target.results), '');
  }
  return parts.join('\n');
}

/** What the training reported on its held-out latest 20 %: each candidate's metrics (or the served model's, from an API without candidates). */
function heldOut(apiModel) {
  const brief = (metrics) => ['auc', 'averagePrecision', 'precisionAtPrevent', 'recallAtReview'].map((name) => `${name} ${round(metrics?.[name])}`).join(', ');
  if (Array.isArray(apiModel.candidates) && apiModel.candidates.length > 0) return apiModel.candidates.map((candidate) => `${candidate.algorithm}: ${brief(candidate.metrics)}`).join('; ');
  return brief(apiModel.metrics);
}

/** The fraudulent payments of the truth file, and the pattern of each. */
async function readTruth(file) {
  const patternOf = new Map();
  for await (const line of fileLines(file)) {
    if (!line) continue;
    const fraud = JSON.parse(line);
    patternOf.set(fraud.transactionId, fraud.pattern);
  }
  return { patternOf };
}

/** The disputed transactions of the dispute feed, less those forgiven since (outcome WON, stage CHARGEBACK_REVERSED). */
function disputedTransactions(lines) {
  const disputes = new Map();
  for (const line of lines) {
    const dispute = JSON.parse(line).payload.dispute;
    if (dispute?.transactionId !== undefined) disputes.set(dispute.disputeId, dispute);
  }
  return new Set([...disputes.values()].filter((dispute) => !entities.isChargebackForgiven(dispute)).map((dispute) => dispute.transactionId));
}

/** The embedded server as a user runs it, with the per-customer and per-account limits raised as for a backfill. */
async function startServer(dataDir) {
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const url = `https://localhost:${port}`;
  const child = spawn(process.execPath, [join(DIST, 'apps/standalone/src/main.js')], {
    env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_API_KEY: ADMIN_KEY, CUSTOMER_RATE_LIMIT_PER_MINUTE: '1000000', ACCOUNT_RATE_LIMIT_PER_MINUTE: '100000000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM'))));
  try {
    const key = await waitFor(() => (existsSync(join(dataDir, 'bootstrap-key')) ? readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim() : null), 120_000);
    const ca = await waitFor(() => (existsSync(join(dataDir, 'tls', 'cert.pem')) ? readFileSync(join(dataDir, 'tls', 'cert.pem')) : null), 60_000);
    const agent = new Agent({ ca });
    const api = (method, path, body) => call({ url, method, path, body, key, agent });
    await waitFor(async () => ((await api('GET', '/health/ready').catch(() => ({ status: 0 }))).status === 200 ? true : null), 120_000);
    return { api, url, key, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A feed topic's events as they stand now, written to a file (a run's decisions are large), read back line by line. */
function exportTopic(url, dataDir, topic) {
  return exportedLines(join(work, `${topic}.${Date.now()}.jsonl`), (out) => cli(['--url', url, 'feed', 'export', topic], dataDir, ['ignore', out, 'inherit']));
}

function countBy(rows, keyOf) {
  const counts = {};
  for (const row of rows) counts[keyOf(row)] = (counts[keyOf(row)] ?? 0) + 1;
  return counts;
}

function dayIso(day) {
  return new Date(START + day * DAY_MS).toISOString();
}



