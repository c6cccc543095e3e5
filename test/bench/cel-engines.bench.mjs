// The two CEL engines for checkpoint rules side by side (libs/scoring-engine/src/rules/README.md
// records the numbers and the choice): `npm run bench:cel`. Imports the engines directly, so it
// needs no build.
//
// Per engine and expression: compile time (parse + type-check where the engine can; @bufbuild/cel
// has no public checker, so parse + plan) and evaluation time per call against a context shaped
// like a checkpoint's (a nested payload, ~60 features, network, labels, lookup, score), in µs and
// ops/s, the median of BENCH_ROUNDS rounds (7). Then what each engine reports for broken
// expressions, at compile time or only when evaluated.
// Env: BENCH_ROUNDS (7), BENCH_COMPILE_ITERATIONS (2000), BENCH_EVAL_ITERATIONS (200000).
import { Environment } from '@marcbachmann/cel-js';
import { CelScalar, celEnv, isCelError, mapType, parse as parseBuf, plan as planBuf } from '@bufbuild/cel';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const compileIterations = Number(process.env.BENCH_COMPILE_ITERATIONS ?? 2000);
const evalIterations = Number(process.env.BENCH_EVAL_ITERATIONS ?? 200000);

// ~60 features of the catalogue's kinds: velocity counts (int), sums and rates (double), flags
// (bool) and a few strings.
const featureValues = {};
const featureTypes = {};
for (const subject of ['Customer', 'Card', 'Device', 'Email', 'Phone', 'Ip', 'Merchant']) {
  for (const window of ['1h', '24h', '7d', '30d']) {
    featureValues[`count${subject}${window}`] = 3;
    featureTypes[`count${subject}${window}`] = 'int';
  }
  featureValues[`sum${subject}24h`] = 1234.5;
  featureTypes[`sum${subject}24h`] = 'double';
  featureValues[`fraudRate${subject}`] = 0.02;
  featureTypes[`fraudRate${subject}`] = 'double';
}
for (const [name, value] of Object.entries({ cardCountryMismatch: true, emailDisposable: true, phoneVoip: false, ipProxy: false, deviceEmulator: false })) {
  featureValues[name] = value;
  featureTypes[name] = 'bool';
}
for (const [name, value] of Object.entries({ emailDomain: 'example.ru', cardCountry: 'DE', ipCountry: 'FR' })) {
  featureValues[name] = value;
  featureTypes[name] = 'string';
}
const networkValues = { hopsToFraud: 2, networkSize: 14, networkCustomers: 3, maxNodesHit: false, growthRate: 0.4, sharedDeviceCustomers: 1, sharedCardCustomers: 0, sharedEmailCustomers: 0, sharedPhoneCustomers: 1 };
const networkTypes = { hopsToFraud: 'int', networkSize: 'int', networkCustomers: 'int', maxNodesHit: 'bool', growthRate: 'double', sharedDeviceCustomers: 'int', sharedCardCustomers: 'int', sharedEmailCustomers: 'int', sharedPhoneCustomers: 'int' };
const lookupValues = { ownHits: 0, consortiumAccounts: 1, verdict: 'none' };
const lookupTypes = { ownHits: 'int', consortiumAccounts: 'int', verdict: 'string' };
const payload = {
  timestamp: 1764000000000,
  customer: { customerId: 'c-1', email: 'someone@example.ru', name: 'Some One', telephone: '+447700900123' },
  transaction: { transactionId: 't-1', amount: 75000, currency: 'EUR', mid: 'm-9', card: { bin: '411111', last4: '1111', country: 'DE' } },
  device: { deviceId: 'd-1', ip: '203.0.113.9', userAgent: 'Mozilla/5.0' },
};
const labels = { PAYMENT_FRAUD: 'UNREVIEWED' };
const score = 42;

// CEL ints are BigInts in both engines; doubles are numbers.
const asCel = (values, types) => Object.fromEntries(Object.entries(values).map(([name, value]) => [name, types[name] === 'int' ? BigInt(value) : value]));

const expressions = [
  'features.cardCountryMismatch && payload.transaction.amount > 50000',
  'network.hopsToFraud >= 0 && network.hopsToFraud <= 2',
  // `'emailDisposable' in features` works on a map only; has() is CEL's presence test for both.
  'has(features.emailDisposable) && features.emailDisposable',
  "size(payload.customer.email) > 0 && payload.customer.email.endsWith('.ru')",
];

/** @marcbachmann/cel-js: the nested names declared as object types, so the checker knows their fields. */
function marcbachmannEngine() {
  class Features {}
  class Network {}
  class Lookup {}
  const env = new Environment()
    .registerType('Features', { ctor: Features, fields: featureTypes })
    .registerType('Network', { ctor: Network, fields: networkTypes })
    .registerType('Lookup', { ctor: Lookup, fields: lookupTypes })
    .registerVariable('payload', 'map<string, dyn>')
    .registerVariable('features', 'Features')
    .registerVariable('network', 'Network')
    .registerVariable('labels', 'map<string, string>')
    .registerVariable('lookup', 'Lookup')
    .registerVariable('score', 'int');
  const context = {
    payload,
    features: Object.assign(new Features(), asCel(featureValues, featureTypes)),
    network: Object.assign(new Network(), asCel(networkValues, networkTypes)),
    labels,
    lookup: Object.assign(new Lookup(), asCel(lookupValues, lookupTypes)),
    score: BigInt(score),
  };
  return {
    name: '@marcbachmann/cel-js',
    context,
    compile(expression) {
      const program = env.parse(expression);
      const checked = program.check();
      if (!checked.valid) throw checked.error;
      return program;
    },
    evaluate: (program, ctx) => program(ctx),
    diagnose(expression) {
      let program;
      try {
        program = env.parse(expression);
      } catch (error) {
        return `compile: ${error.summary} @${error.range?.start}`;
      }
      const checked = program.check();
      if (!checked.valid) return `compile: ${checked.error.summary} @${checked.error.range?.start}`;
      if (checked.type !== 'bool') return `compile: result type ${checked.type} (caller checks)`;
      try {
        return `runs: ${program(context)}`;
      } catch (error) {
        return `run: ${error.summary} @${error.range?.start}`;
      }
    },
  };
}

/**
 * @bufbuild/cel: without protobuf message descriptors a nested name can only be declared as a
 * map, so fields are not known before evaluation; its checker is internal (not exported).
 */
function bufbuildEngine() {
  const env = celEnv({
    variables: {
      payload: mapType(CelScalar.STRING, CelScalar.DYN),
      features: mapType(CelScalar.STRING, CelScalar.DYN),
      network: mapType(CelScalar.STRING, CelScalar.DYN),
      labels: mapType(CelScalar.STRING, CelScalar.STRING),
      lookup: mapType(CelScalar.STRING, CelScalar.DYN),
      score: CelScalar.INT,
    },
  });
  const context = {
    payload,
    features: asCel(featureValues, featureTypes),
    network: asCel(networkValues, networkTypes),
    labels,
    lookup: asCel(lookupValues, lookupTypes),
    score: BigInt(score),
  };
  return {
    name: '@bufbuild/cel',
    context,
    compile: (expression) => planBuf(env, parseBuf(expression)),
    evaluate(program, ctx) {
      const result = program(ctx);
      if (isCelError(result)) throw result;
      return result;
    },
    diagnose(expression) {
      let program;
      try {
        program = planBuf(env, parseBuf(expression));
      } catch (error) {
        return `compile: ${error.message}`;
      }
      const result = program(context);
      return isCelError(result) ? `run: ${result.message}` : `runs: ${typeof result === 'bigint' ? `${result}n` : result}`;
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Median µs per call of `run` over `rounds` rounds of `iterations` calls, after a warm-up round. */
function measure(iterations, run) {
  for (let i = 0; i < Math.min(iterations, 10000); i += 1) run(i);
  const perRound = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i += 1) run(i);
    perRound.push(Number(process.hrtime.bigint() - started) / 1000 / iterations);
  }
  return median(perRound);
}

const engines = [marcbachmannEngine(), bufbuildEngine()];
const timings = [];
let sink = 0;
for (const engine of engines) {
  for (const expression of expressions) {
    const program = engine.compile(expression);
    if (engine.evaluate(program, engine.context) !== true) throw new Error(`${engine.name}: ${expression} should be true on the bench context`);
    const compileMicros = measure(compileIterations, () => {
      sink += engine.compile(expression) ? 1 : 0;
    });
    const evalMicros = measure(evalIterations, () => {
      sink += engine.evaluate(program, engine.context) ? 1 : 0;
    });
    timings.push({
      engine: engine.name,
      expression: expression.length > 48 ? `${expression.slice(0, 45)}...` : expression,
      'compile µs': Number(compileMicros.toFixed(1)),
      'compile ops/s': Math.round(1e6 / compileMicros),
      'eval µs': Number(evalMicros.toFixed(3)),
      'eval ops/s': Math.round(1e6 / evalMicros),
    });
  }
}

const broken = {
  'syntax error': 'score >= ',
  'unknown name': 'scor >= 80',
  'unknown field': 'network.hopsToFarud <= 2',
  'non-boolean result': 'score + 1',
  'wrong operand type': "labels.PAYMENT_FRAUD == 1",
  'int vs double': 'features.sumCard24h > 10 && score >= 40',
};
const diagnostics = Object.fromEntries(Object.entries(broken).map(([problem, expression]) => [
  `${problem}: ${expression}`,
  Object.fromEntries(engines.map((engine) => [engine.name, engine.diagnose(expression)])),
]));

console.log(`Node ${process.version}; ${rounds} rounds, median; compile ${compileIterations} and evaluation ${evalIterations} calls a round`);
console.table(timings);
console.log('What each engine says about broken expressions (@N: 0-based offset):');
console.table(diagnostics);
if (sink === 0) console.log('(nothing evaluated)');
