// Validation cost per request: the heaviest golden payloads (POST /psp/transaction and
// POST /v2/refund, every object filled in) through the same `validateInput` the HTTP stack runs,
// which validates the parsed JSON in place with class-validator's compiled rules (strict; no
// class-transformer instance), beside the path it replaced in the same run: class-transformer's
// `plainToInstance`, then the same compiled rules over the instances (`validateCompiled`).
// µs per validation (timed rounds), then bytes allocated per validation in a round of their own,
// counted by V8's sampling heap profiler (HeapProfiler.startSampling keeping the samples of
// objects the collections freed; an unbiased estimate, as bench:scoring-allocation counts):
// `npm run bench:validation`.
// Env: BENCH_ITERATIONS (5000 per round), BENCH_ROUNDS (7; the median round is reported).
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const { validateInput } = require(join(root, 'dist/libs/services/runtime/src/http/validate-input.js'));
const { validateCompiled } = require(join(root, 'dist/libs/services/runtime/src/http/compiled-validator.js'));
const { plainToInstance } = require('class-transformer');
const contracts = require(join(root, 'dist/libs/contracts/src/index.js'));

/** The replaced path: an instance tree by class-transformer, then the compiled rules over it. */
function viaInstances(dto, plain) {
  const value = plainToInstance(dto, plain, { enableImplicitConversion: false });
  return validateCompiled(value).length === 0 ? { ok: true, value } : { ok: false };
}
const paths = [
  ['validateInput (JSON in place)', (dto, plain) => validateInput(dto, plain)],
  ['plainToInstance + compiled rules (replaced)', viaInstances],
];

const iterations = Number(process.env.BENCH_ITERATIONS ?? 5000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const fixture = (name) => JSON.parse(readFileSync(join(root, 'test/contracts/fixtures', `${name}.json`), 'utf8')).body;

const cases = [
  { name: 'POST /psp/transaction (full)', dto: contracts.PspTransactionRequestDto, body: fixture('psp-transaction/valid/full') },
  { name: 'POST /v2/refund (full)', dto: contracts.RefundRequestDto, body: fixture('refund/valid/full') },
  { name: 'POST /v2/connect (full)', dto: contracts.ConnectRequestDto, body: fixture('connect/valid/full') },
  { name: 'POST /v2/customer (full)', dto: contracts.CustomerRequestDto, body: fixture('customer/valid/full') },
];

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');

/** Total self bytes of a sampling profile's tree. */
const bytesOf = (node) => node.selfSize + node.children.reduce((sum, child) => sum + bytesOf(child), 0);

/** Bytes allocated per call of `run` on fresh inputs (made before the profile starts). */
async function allocatedPerValidation(run, dto, fresh) {
  const inputs = Array.from({ length: iterations }, fresh);
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  for (const input of inputs) run(dto, input);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  return bytesOf(profile.head) / iterations;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = {};
for (const { name, dto, body } of cases) {
  const bytes = Buffer.byteLength(JSON.stringify(body));
  // The HTTP stack parses the body per request; validation then owns its copy.
  const fresh = () => JSON.parse(JSON.stringify(body));
  for (const [pathName, run] of paths) {
    const first = run(dto, fresh());
    if (!first.ok) throw new Error(`${name}: the fixture does not validate by ${pathName}: ${first.problems?.join('; ')}`);
    for (let warm = 0; warm < 1000; warm += 1) run(dto, fresh());
    const perRound = [];
    for (let round = 0; round < rounds; round += 1) {
      const inputs = Array.from({ length: iterations }, fresh);
      const started = process.hrtime.bigint();
      for (const input of inputs) run(dto, input);
      perRound.push(Number(process.hrtime.bigint() - started) / 1000 / iterations);
    }
    const allocated = await allocatedPerValidation(run, dto, fresh);
    rows[`${name}: ${pathName}`] = {
      bytes,
      'µs/validation (median)': Number(median(perRound).toFixed(1)),
      'min round': Number(Math.min(...perRound).toFixed(1)),
      'max round': Number(Math.max(...perRound).toFixed(1)),
      'KB allocated/validation': Number((allocated / 1024).toFixed(1)),
    };
  }
}
console.log(`validation paths, ${iterations} validations x ${rounds} rounds`);
console.table(rows);
session.disconnect();
