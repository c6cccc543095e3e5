// `npm run bench`: every benchmark in turn, each in its own process so none warms another.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const here = import.meta.dirname;
const runs = [
  ['validation.bench.mjs', {}],
  ['features.bench.mjs', {}],
  ['endpoint-load.bench.mjs', { BENCH_ENDPOINT: 'customer' }],
  ['endpoint-load.bench.mjs', { BENCH_ENDPOINT: 'supplier' }],
  ['graph.bench.mjs', {}, ['--max-old-space-size=4096']],
  ['graph-https.bench.mjs', {}, ['--max-old-space-size=4096']],
  ['mixed-load.bench.mjs', {}],
];
for (const [script, env, nodeOptions = []] of runs) {
  const { status } = spawnSync(process.execPath, [...nodeOptions, join(here, script)], { stdio: 'inherit', env: { ...process.env, ...env } });
  if (status !== 0) process.exit(status ?? 1);
}
