// Validation cost per request: the heaviest golden payloads (POST /psp/transaction and
// POST /v2/refund, every object filled in) through the same `validateInput` the HTTP stack runs
// (class-transformer, then the compiled class-validator rules, strict), in µs per validation: `npm run bench:validation`.
// Env: BENCH_ITERATIONS (5000 per round), BENCH_ROUNDS (7; the median round is reported).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const { validateInput } = require(join(root, 'dist/libs/services/runtime/src/http/validate-input.js'));
const contracts = require(join(root, 'dist/libs/contracts/src/index.js'));

const iterations = Number(process.env.BENCH_ITERATIONS ?? 5000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const fixture = (name) => JSON.parse(readFileSync(join(root, 'test/contracts/fixtures', `${name}.json`), 'utf8')).body;

const cases = [
  { name: 'POST /psp/transaction (full)', dto: contracts.PspTransactionRequestDto, body: fixture('psp-transaction/valid/full') },
  { name: 'POST /v2/refund (full)', dto: contracts.RefundRequestDto, body: fixture('refund/valid/full') },
  { name: 'POST /v2/connect (full)', dto: contracts.ConnectRequestDto, body: fixture('connect/valid/full') },
  { name: 'POST /v2/customer (full)', dto: contracts.CustomerRequestDto, body: fixture('customer/valid/full') },
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = {};
for (const { name, dto, body } of cases) {
  const bytes = Buffer.byteLength(JSON.stringify(body));
  // The HTTP stack parses the body per request; validation then owns its copy.
  const fresh = () => JSON.parse(JSON.stringify(body));
  const first = validateInput(dto, fresh());
  if (!first.ok) throw new Error(`${name}: the fixture does not validate: ${first.problems.join('; ')}`);
  for (let warm = 0; warm < 1000; warm += 1) validateInput(dto, fresh());
  const perRound = [];
  for (let round = 0; round < rounds; round += 1) {
    const inputs = Array.from({ length: iterations }, fresh);
    const started = process.hrtime.bigint();
    for (const input of inputs) validateInput(dto, input);
    perRound.push(Number(process.hrtime.bigint() - started) / 1000 / iterations);
  }
  rows[name] = { bytes, 'µs/validation (median)': Number(median(perRound).toFixed(1)), 'min round': Number(Math.min(...perRound).toFixed(1)), 'max round': Number(Math.max(...perRound).toFixed(1)) };
}
console.log(`validateInput, ${iterations} validations x ${rounds} rounds`);
console.table(rows);
