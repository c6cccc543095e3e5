// Realistic rule sets for the load benchmarks (BENCH_RULES of `npm run bench:mixed`): `count`
// rules per checkpoint saved through the public API (POST /v2/rules) on the server under test,
// as an analyst's rule set looks: conditions on the request (payload), the catalogue's features
// (built from its declarations for the checkpoint, so they type-check), the network, labels, the
// known-fraud lookup and the score (velocity counts included), with thresholds that mostly do
// not trigger on the mixed workload's traffic; four in five active, one in five passive; and a
// few that fail at run time on a value the request does not carry (an unguarded read of a field
// never sent, of a label category the subject lacks, of a feature that is often absent), beside
// their guarded forms.
import { request } from 'node:https';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './bench-processes.mjs';

export const RULE_CHECKPOINTS = ['customer', 'voucherRedemption', 'registration', 'refund', 'payout', 'pspBeforeAuth', 'pspAfterAuth'];

// Conditions on the request body as each checkpoint's integration sends it (JSON numbers are doubles).
const PAYLOAD = {
  customer: [
    'has(payload.customer.accountType) && payload.customer.accountType == "GUEST" && score >= 50',
    'has(payload.device.language) && !payload.device.language.startsWith("en") && score >= 60',
    'payload.device.browserFingerprint == "a1b2c3d4"', // never sent: fails at run time
    'has(payload.device.browserFingerprint) && payload.device.browserFingerprint == "a1b2c3d4"',
  ],
  registration: [
    'has(payload.registration.guestAccount) && payload.registration.guestAccount && score >= 60',
    'has(payload.registration.success) && !payload.registration.success && score >= 40',
    'payload.registration.referrer == "partner-x"', // fails unless sent
    'has(payload.registration.referrer) && payload.registration.referrer == "partner-x"',
  ],
  payout: [
    'payload.payout.earnings.totalNetAmount > 2000000.0',
    'has(payload.payout.initiatedBy) && payload.payout.initiatedBy == "ADMIN" && score >= 40',
    'payload.supplier.level == "bronze" && payload.payout.earnings.totalNetAmount > 500000.0', // no level on most: fails
    'has(payload.supplier.level) && payload.supplier.level == "bronze" && payload.payout.earnings.totalNetAmount > 500000.0',
  ],
  refund: [
    'payload.refund.amount > payload.order.price * 1.5',
    'has(payload.refund.nonRefundableAmount) && payload.refund.nonRefundableAmount > 50000.0',
    'payload.order.couponCode == "FREE100"', // never sent: fails
    'has(payload.order.couponCode) && payload.order.couponCode == "FREE100"',
  ],
  voucherRedemption: [
    'payload.voucherRedemption.value >= 10000.0 && score >= 30',
    'payload.voucherRedemption.voucherType == "REFERRAL" && has(features.accountAgeHours) && features.accountAgeHours < 1.0',
    'payload.voucherRedemption.campaignId == "black-friday"', // never sent: fails
    'has(payload.voucherRedemption.campaignId) && payload.voucherRedemption.campaignId == "black-friday"',
  ],
  transaction: [
    'payload.transaction.amount >= 500000.0 && score >= 40',
    'has(payload.transaction.currency) && !(payload.transaction.currency in ["GBP", "EUR", "USD"]) && score > 30',
    'has(payload.billingAddress.country) && has(payload.shippingAddress.country) && payload.billingAddress.country != payload.shippingAddress.country && payload.transaction.amount > 100000.0',
    'payload.transaction.installments > 6.0', // never sent: fails
    'has(payload.transaction.installments) && payload.transaction.installments > 6.0',
  ],
};

// Network, labels, lookup and score: the same at every checkpoint.
const COMMON = [
  'has(network.sharedDeviceCustomers) && network.sharedDeviceCustomers >= 8',
  'has(network.hopsToFraud) && network.hopsToFraud >= 0 && network.hopsToFraud <= 1 && score >= 60',
  'has(network.growthRate) && network.growthRate > 0.9 && network.networkCustomers > 10',
  'network.sharedCardCustomers >= 6 && score >= 40',
  '"PAYMENT_FRAUD" in labels && labels.PAYMENT_FRAUD == "FRAUDSTER" && score >= 70',
  'labels.ACCOUNT_TAKEOVER == "FRAUDSTER"', // a category the subjects have no label in: fails
  'lookup.verdict == "consortium" && lookup.consortiumAccounts >= 5',
  'lookup.ownIndicators >= 3',
  'score >= 95',
  'has(network.maxNodesHit) && network.maxNodesHit && score >= 50',
];

/** A condition on one declared feature that an ordinary request does not meet; unguarded every seventh. */
function featureCondition({ name, type }, index) {
  const f = `features.${name}`;
  let condition;
  if (type === 'bool') {
    // Features whose `true` is the reassuring case are checked for `false`.
    const reassuring = /^has|Verified|Matches|Authenticated|Answered|Attempted|Shifted|HasPaymentMethod/.test(name);
    condition = `${reassuring ? '!' : ''}${f} && score >= 60`;
  } else if (type === 'int') {
    // Velocity counts per customer, card, device…: a dozen is a lot; the merchant's own are large.
    condition = /LastSeen$/.test(name) ? `${f} > 4102444800000` : /^merchant/.test(name) ? `${f} >= 1000000` : `${f} >= 12 && score >= 40`;
  } else if (type === 'double') {
    const threshold = /Hours(Ago)?$/.test(name) ? '< 0.5' : /Ratio|Rate/.test(name) ? '> 0.95' : /^merchant/.test(name) ? '> 10000000.0' : '> 5000.0';
    condition = `${f} ${threshold} && score >= 40`;
  } else {
    condition = /Country$/.test(name) ? `${f} in ["PRK", "IRN", "SYR"]` : `${f} == "bench-never"`;
  }
  return index % 7 === 3 ? condition : `has(${f}) && ${condition}`;
}

/** `count` rule bodies for `checkpoint` (more than the templates: the same conditions with a stricter score). */
export function realisticRules(checkpoint, count) {
  const catalogueCheckpoint = checkpoint.startsWith('psp') ? 'transaction' : checkpoint;
  const require = createRequire(import.meta.url);
  const { featureDeclarations } = require(join(ROOT, 'dist/libs/scoring-engine/src/features/feature-catalogue.js'));
  const declared = featureDeclarations(catalogueCheckpoint);
  // In a golden-ratio order, so that any first few spread over the catalogue's groups (identity,
  // device, payment, network, lookup, velocity) instead of taking its first group.
  const spread = declared.map((_, i) => i).sort((a, b) => ((a * 0.618034) % 1) - ((b * 0.618034) % 1));
  const features = spread.map((i) => featureCondition(declared[i], i));
  const expressions = [...PAYLOAD[catalogueCheckpoint], ...COMMON, ...features];
  return Array.from({ length: count }, (_, i) => {
    const round = Math.floor(i / expressions.length);
    const expression = expressions[i % expressions.length] + (round > 0 ? ` && score >= ${100 - round}` : '');
    return {
      name: `bench ${checkpoint} ${i + 1}`,
      description: 'Benchmark rule (test/bench/bench-rules.mjs).',
      checkpoint,
      expression,
      action: i % 4 === 0 ? 'PREVENT' : 'REVIEW',
      state: i % 5 === 4 ? 'passive' : 'active',
    };
  });
}

function post(port, path, key, body) {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), authorization: `token ${key}` };
    request({ host: '127.0.0.1', port, path, method: 'POST', headers, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    })
      .on('error', reject)
      .end(data);
  });
}

/** Saves `count` rules per checkpoint on the server at `port`; throws on the first one refused. */
export async function createRules(port, key, count) {
  const created = { active: 0, passive: 0 };
  for (const checkpoint of RULE_CHECKPOINTS) {
    for (const rule of realisticRules(checkpoint, count)) {
      const { status, text } = await post(port, '/v2/rules', key, rule);
      if (status !== 201) throw new Error(`POST /v2/rules refused ${JSON.stringify(rule)}: ${status} ${text}`);
      created[rule.state] += 1;
    }
  }
  return created;
}
