// Bytes allocated on the V8 heap per scored checkpoint, and which functions allocate them:
// `npm run bench:scoring-allocation` (builds first; `node test/bench/scoring-allocation.bench.mjs`
// runs on the current dist/).
//
// The scoring service's own `CheckpointScorer` (dist/), with its real stages, feature catalogue,
// built-in and shipped models and CheckpointFacts, scores the golden "full" payload of each
// checkpoint with distinct ids. What scoring asks of other services is answered at once by a bus
// that hands back canned replies (the subject as stored a month before, no labels, no known-fraud
// evidence, a network of 42 nodes, one voucher use), and the velocity counters are a fixed vector
// of every velocity feature: what is measured is scoring's own work, not the owners', the bus's
// or the counters'. No rules (as `npm run bench:mixed` by default). The payloads are validated
// and their wire form read before the measurement, as the gateway and the ingest consumers have
// done by the time a checkpoint is scored in the embedded mode.
//
// Bytes are counted by V8's sampling heap profiler (the inspector's HeapProfiler.startSampling,
// keeping the samples of objects the young and old generation collections freed): an unbiased
// estimate of every allocation, attributed to the allocating function. Each round profiles
// BENCH_CHECKPOINTS checkpoints of each case after a warm-up; the summary gives the median round
// per case (min–max), the mean weighted by the mixed workload's checkpoint shares, and the
// functions that allocated most over all rounds.
// Env: BENCH_CHECKPOINTS (2000 per case and round), BENCH_ROUNDS (5), BENCH_SAMPLING_INTERVAL
// (bytes between samples, 4096), BENCH_TOP (functions listed, 20).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { ROOT } from './bench-processes.mjs';

const require = createRequire(import.meta.url);
const dist = (path) => require(join(ROOT, 'dist', path));
const { CheckpointScorer } = dist('libs/services/scoring/src/checkpoint-scorer.js');
const { CheckpointFacts } = dist('libs/services/scoring/src/checkpoint-facts.js');
const { CHECKPOINT_DEFINITIONS } = dist('libs/services/scoring/src/checkpoint-definitions.js');
const { ModelBook } = dist('libs/services/scoring/src/models/model-book.js');
const { DefaultModels } = dist('libs/services/scoring/src/models/default-models.js');
const { RpcTopics, toWireJson } = dist('libs/contracts/src/index.js');
const { createLogger, loadConfig } = dist('libs/platform/src/index.js');
const { validateInput } = dist('libs/services/runtime/src/http/validate-input.js');
const { mergeDocument } = dist('libs/entities/src/merge-document.js');
const { VELOCITY_FEATURE_DEFINITIONS } = dist('libs/scoring-engine/src/velocity/velocity-dimensions.js');

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const checkpointsPerRound = env('BENCH_CHECKPOINTS', 2000);
const rounds = env('BENCH_ROUNDS', 5);
const samplingInterval = env('BENCH_SAMPLING_INTERVAL', 4096);
const top = env('BENCH_TOP', 20);
const DAY = 86_400_000;

const fixture = (name) => JSON.parse(readFileSync(join(ROOT, 'test/contracts/fixtures', `${name}.json`), 'utf8')).body;
const definitionOf = (rpcTopic) => CHECKPOINT_DEFINITIONS.find((definition) => definition.rpcTopic === rpcTopic);

/**
 * The checkpoints scored, with their share of the mixed workload's checkpoints
 * (mixed-workload.mjs's CLASSES) and how a payload of the i-th subject is made from the fixture.
 */
const CASES = [
  { name: 'customer', share: 18, topic: RpcTopics.customerCheckpoint, body: fixture('customer/valid/full'), vary: (body, i) => void (body.customer.customerId = `cus-${i}`) },
  {
    name: 'PSP transaction, pspBeforeAuth',
    share: 16,
    topic: RpcTopics.transactionCheckpoint,
    body: { ...fixture('psp-transaction/valid/full'), checkpoint: 'pspBeforeAuth' },
    vary: (body, i) => Object.assign(body.transaction, { transactionId: `txn-${i}` }) && Object.assign(body.customer, { customerId: `cus-${i}` }),
  },
  {
    name: 'PSP transaction, pspAfterAuth',
    share: 14,
    topic: RpcTopics.transactionCheckpoint,
    body: { ...fixture('psp-transaction/valid/full'), checkpoint: 'pspAfterAuth' },
    vary: (body, i) => Object.assign(body.transaction, { transactionId: `txn-${i}` }) && Object.assign(body.customer, { customerId: `cus-${i}` }),
  },
  { name: 'voucher redemption', share: 5, topic: RpcTopics.voucherRedemptionCheckpoint, body: fixture('voucher-redemption/valid/full'), vary: (body, i) => void (body.customer.customerId = `cus-${i}`) },
  { name: 'refund', share: 4, topic: RpcTopics.refundCheckpoint, body: fixture('refund/valid/full'), vary: (body, i) => void (body.customer.customerId = `cus-${i}`) },
  { name: 'payout', share: 5, topic: RpcTopics.payoutCheckpoint, body: fixture('payout/valid/card-full'), vary: (body, i) => void (body.supplier.supplierId = `sup-${i}`) },
];

const ACCOUNT = { industry: 'food-delivery', settings: {} };
const NETWORK = {
  hopsToFraud: -1,
  networkSize: 42,
  networkCustomers: 7,
  maxNodesHit: false,
  networkGrowthRate: 0.4,
  maxOtherCustomers: { device: 1, card: 0, email: 0, phone: 0 },
  maxFraudCustomers: { device: 0, card: 0, email: 0, phone: 0 },
  maxFraudRate: { device: 0, card: 0, email: 0, phone: 0 },
  merchant: null,
};
const VELOCITY = Object.fromEntries(VELOCITY_FEATURE_DEFINITIONS.map((definition, index) => [definition.name, index % 7]));

/** The subject as stored a month before this request, with a device and a registration time of its own. */
function storedSubject(body) {
  const fields = body.customer ?? body.supplier ?? {};
  const { customerId: _customerId, supplierId: _supplierId, ...rest } = fields;
  return mergeDocument(null, { ...rest, lastDeviceId: 'dev-earlier', registrationTime: body.timestamp - 400 * DAY }, body.timestamp - 30 * DAY);
}

/** A bus whose every request the owners answer at once, from what the checkpoint being scored names. */
function cannedBus(current) {
  const replies = {
    [RpcTopics.readEntityDocuments]: (payload) => ({ documents: payload.refs.map((_ref, index) => (index === 0 ? current.stored : null)) }),
    [RpcTopics.readCurrentLabels]: () => ({ labels: {} }),
    [RpcTopics.checkpointEvidence]: () => ({ evidence: [] }),
    [RpcTopics.graphNetworkFeatures]: () => NETWORK,
    [RpcTopics.graphVoucherUses]: () => ({ uses: 1 }),
  };
  return {
    request: async (topic, message) => {
      const reply = replies[topic];
      if (reply === undefined) throw new Error(`scoring asked ${topic}, which this bench does not answer`);
      return reply(message.payload);
    },
  };
}

/** `count` validated payloads of a case, distinct subjects, their wire form read as the ingest consumers read it. */
function payloadsOf({ topic, body, vary }, count) {
  const { payloadClass } = definitionOf(topic);
  return Array.from({ length: count }, (_unused, i) => {
    const plain = structuredClone(body);
    vary(plain, i);
    const validated = validateInput(payloadClass, plain);
    if (!validated.ok) throw new Error(`${topic}: the fixture is refused: ${validated.problems.join('; ')}`);
    toWireJson(validated.value);
    return validated.value;
  });
}

const current = { stored: null };
const logger = createLogger({ level: 'silent', service: 'bench' });
const config = loadConfig({}, { port: 0 });
const bus = cannedBus(current);
const ruleBook = { rulesOf: () => [], recordOutcome: () => undefined };
const velocity = { refuseWhenOverShare: () => undefined, featuresFor: () => VELOCITY };
const modelBook = new ModelBook({}, logger, DefaultModels.load(join(ROOT, 'dist/libs/services/scoring/default-models')));
const scorer = new CheckpointScorer(bus, new CheckpointFacts(bus, config), config, logger, ruleBook, modelBook, undefined, velocity);

let eventNumber = 0;
/** Scores every payload of a case once, one after another, as the scoring service would. */
async function scoreAll(testCase, payloads) {
  const definition = definitionOf(testCase.topic);
  current.stored = storedSubject(testCase.body);
  let answered = 0;
  for (const payload of payloads) {
    eventNumber += 1;
    const message = { eventId: `evt-${eventNumber}`, accountId: 'acc_bench', environment: 'live', subjectId: 's', acceptedAt: 1, traceId: `trace-${eventNumber}`, payload, account: ACCOUNT };
    const scored = await scorer.score(definition, message);
    if (scored.recommendation !== undefined) answered += 1;
  }
  if (answered !== payloads.length) throw new Error(`${testCase.name}: ${payloads.length - answered} checkpoints without a recommendation`);
}

/** Self bytes per allocating function (name and location), summed over a sampling profile's tree. */
function addSelfBytes(node, byFunction, path = []) {
  const { functionName, url, lineNumber } = node.callFrame;
  const location = `${functionName || '(anonymous)'} ${url.replace(`file://${ROOT}/`, '').replace(`${ROOT}/`, '')}:${lineNumber + 1}`;
  if (node.selfSize > 0) byFunction.set(location, (byFunction.get(location) ?? 0) + node.selfSize);
  let total = node.selfSize;
  for (const child of node.children) total += addSelfBytes(child, byFunction, path);
  return total;
}

const session = new Session();
session.connect();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const byFunction = new Map();
const perCase = new Map(CASES.map((testCase) => [testCase.name, []]));
const timePerCase = new Map(CASES.map((testCase) => [testCase.name, []]));

const pools = new Map(CASES.map((testCase) => [testCase.name, payloadsOf(testCase, checkpointsPerRound)]));
for (const testCase of CASES) await scoreAll(testCase, pools.get(testCase.name).slice(0, 500));

for (let round = 0; round < rounds; round += 1) {
  for (const testCase of CASES) {
    const payloads = pools.get(testCase.name);
    // Timed without the profiler, which slows every allocation down.
    const started = process.hrtime.bigint();
    await scoreAll(testCase, payloads);
    timePerCase.get(testCase.name).push(Number(process.hrtime.bigint() - started) / 1000 / payloads.length);
    await session.post('HeapProfiler.startSampling', { samplingInterval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    await scoreAll(testCase, payloads);
    const { profile } = await session.post('HeapProfiler.stopSampling');
    perCase.get(testCase.name).push(addSelfBytes(profile.head, byFunction) / payloads.length);
  }
}
session.disconnect();

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const rows = {};
let weighted = 0;
let shares = 0;
for (const testCase of CASES) {
  const bytes = perCase.get(testCase.name);
  rows[testCase.name] = {
    'allocated a checkpoint (median)': kb(median(bytes)),
    'min–max of the rounds': `${kb(Math.min(...bytes))}–${kb(Math.max(...bytes))}`,
    'µs a checkpoint (median)': Number(median(timePerCase.get(testCase.name)).toFixed(1)),
  };
  weighted += median(bytes) * testCase.share;
  shares += testCase.share;
}
console.log(`CheckpointScorer.score: bytes allocated per checkpoint, ${checkpointsPerRound} checkpoints per case × ${rounds} rounds (sampling every ${samplingInterval} bytes)`);
console.table(rows);
console.log(`mean over the mixed workload's checkpoint shares: ${kb(weighted / shares)} a checkpoint`);
const total = [...byFunction.values()].reduce((sum, bytes) => sum + bytes, 0);
const checkpointsProfiled = rounds * CASES.length * checkpointsPerRound;
console.log(`\nthe ${top} functions that allocated most (all cases and rounds, bytes a checkpoint on average, share):`);
for (const [location, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${kb(bytes / checkpointsProfiled).padStart(9)}  ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${location}`);
}
