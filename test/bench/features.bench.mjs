// Cost of the feature vector per checkpoint: `computeFeatures` (every catalogue feature of the
// checkpoint, from the golden "full" payloads, a stored subject merged with the request, a graph
// answer and a lookup answer) and `scoreFeatures` over it, in µs per checkpoint, on the built
// output: `npm run bench:features`. The user-agent parse is cached per distinct string (as in
// production, where a few thousand browsers make most traffic); the "new user agent" row makes
// every iteration parse a user agent never seen, the worst case.
// Env: BENCH_ITERATIONS (20000 per round), BENCH_ROUNDS (7; the median round is reported).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const { computeFeatures } = require(join(root, 'dist/libs/scoring-engine/src/features/feature-catalogue.js'));
const { loadFeatureReferenceData } = require(join(root, 'dist/libs/scoring-engine/src/features/reference-data.js'));
const { scoreFeatures } = require(join(root, 'dist/libs/scoring-engine/src/model/score-model.js'));
const { mergeDocument } = require(join(root, 'dist/libs/entities/src/merge-document.js'));

const iterations = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const fixture = (name) => JSON.parse(readFileSync(join(root, 'test/contracts/fixtures', `${name}.json`), 'utf8')).body;
const DAY = 86_400_000;

const network = { hopsToFraud: -1, networkSize: 42, networkCustomers: 7, maxNodesHit: false, networkGrowthRate: 0.4, maxOtherCustomers: { device: 1, card: 0, email: 0, phone: 0 } };
const lookup = {
  knownFraudIndicators: 1,
  lookupOwnIndicators: 0,
  lookupConsortiumIndicators: 1,
  lookupConsortiumAccounts: 1,
  lookupConsortiumChargebacks: 1,
  lookupConsortiumManualReviews: 0,
  lookupConsortiumReports: 0,
  lookupConsortiumLastSeen: 1_763_000_000_000,
  lookupConsortiumLastSeenHoursAgo: 222.2,
};

/** The subject as the scorer sees it: stored a month before with a device, merged with the request's own fields. */
function inputs(checkpoint, body, subjectKind, subjectFields) {
  const earlier = mergeDocument(null, { ...subjectFields, lastDeviceId: 'dev-earlier', registrationTime: body.timestamp - 400 * DAY }, body.timestamp - 30 * DAY);
  const merged = mergeDocument(earlier, subjectFields, body.timestamp) ?? earlier;
  return {
    checkpoint,
    payload: body,
    subjectKind,
    subject: merged.fields,
    subjectFieldTimestamps: merged.fieldTimestamps,
    eventTimeMs: body.timestamp,
    network,
    lookup,
    voucherNetwork: checkpoint === 'voucherRedemption' ? { uses: 1, threshold: 3, abuse: false } : null,
  };
}

const withoutId = ({ customerId: _c, supplierId: _s, ...rest }) => rest;
const transaction = fixture('psp-transaction/valid/full');
transaction.device.ipAddress = '81.2.69.142';
const customer = fixture('customer/valid/full');
customer.device.ipAddress = '81.2.69.142';
const registration = fixture('registration/valid/full-customer');
const refund = fixture('refund/valid/full');
const payout = fixture('payout/valid/card-full');
const voucher = fixture('voucher-redemption/valid/full');

const cases = [
  { name: 'customer (full)', inputs: inputs('customer', customer, 'customer', withoutId(customer.customer)) },
  { name: 'registration (full customer)', inputs: inputs('registration', { ...registration, registrationId: 'reg_1', credentialStatus: { usernameBreached: false, passwordBreached: false } }, 'customer', withoutId(registration.customer)) },
  { name: 'payout (card, full)', inputs: inputs('payout', payout, 'supplier', withoutId(payout.supplier)) },
  { name: 'refund (full)', inputs: inputs('refund', refund, 'customer', withoutId(refund.customer)) },
  { name: 'voucherRedemption (full)', inputs: inputs('voucherRedemption', voucher, 'customer', withoutId(voucher.customer ?? {})) },
  { name: 'transaction (PSP, full)', inputs: inputs('transaction', transaction, 'customer', withoutId(transaction.customer)) },
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** µs per call of `run(i)`, the median of `rounds` rounds of `iterations` calls, after a warm-up. */
function measure(run) {
  for (let i = 0; i < 2_000; i += 1) run(i);
  const perRound = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i += 1) run(round * iterations + i);
    perRound.push(Number(process.hrtime.bigint() - started) / 1000 / iterations);
  }
  return { median: median(perRound), min: Math.min(...perRound), max: Math.max(...perRound) };
}

const started = process.hrtime.bigint();
loadFeatureReferenceData();
const loadMs = Number(process.hrtime.bigint() - started) / 1e6;

const rows = {};
let sink = 0;
for (const { name, inputs: base } of cases) {
  const features = computeFeatures(base);
  const vector = measure(() => {
    sink += Object.keys(computeFeatures(base)).length;
  });
  const scored = measure(() => {
    sink += scoreFeatures(computeFeatures(base), base.checkpoint).score;
  });
  rows[name] = {
    features: Object.keys(features).length,
    'computeFeatures µs (median)': Number(vector.median.toFixed(2)),
    '+ scoreFeatures µs (median)': Number(scored.median.toFixed(2)),
    'max round µs': Number(scored.max.toFixed(2)),
  };
}

// Worst case: a user agent never seen before on every call (the parse cache never hits).
const unseen = cases[5].inputs;
const uncached = measure((i) => {
  const payload = { ...unseen.payload, device: { ...unseen.payload.device, userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${i}.0.0.0 Safari/537.36` } };
  sink += scoreFeatures(computeFeatures({ ...unseen, payload }), 'transaction').score;
});
rows['transaction, new user agent every call'] = {
  features: Object.keys(computeFeatures(unseen)).length,
  'computeFeatures µs (median)': null,
  '+ scoreFeatures µs (median)': Number(uncached.median.toFixed(2)),
  'max round µs': Number(uncached.max.toFixed(2)),
};

console.log(`feature vector + model score, ${iterations} checkpoints x ${rounds} rounds (reference data loaded in ${loadMs.toFixed(1)} ms) [${sink > 0 ? 'ok' : '?'}]`);
console.table(rows);
