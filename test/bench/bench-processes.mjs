// Processes for the load benchmarks: a free port, and a server started as a child process that
// counts as up once its health path answers 200.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/**
 * How the benchmarks start the standalone server: as `npm start` runs it, its Node options included
 * (package.json), so a benchmark measures what users run. BENCH_SERVER_OPTIONS, when set (even
 * empty), replaces those options, for comparing them: `BENCH_SERVER_OPTIONS=` runs V8's defaults.
 */
export function standaloneArgs() {
  const [, ...words] = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
  const entrypoint = words.pop();
  const override = process.env.BENCH_SERVER_OPTIONS;
  return [...(override === undefined ? words : override.split(/\s+/).filter(Boolean)), entrypoint];
}

export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

export const answers = (port, path = '/health/live') =>
  new Promise((resolve) => {
    get({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (res) => resolve(res.statusCode === 200))
      .on('error', () => resolve(false));
  });

/**
 * Starts a server process and resolves once `healthPath` answers 200 (at most `timeoutMs`).
 * `readStdout`, when given, gets the child's stdout stream as soon as it is spawned (it must read
 * it all, or the child blocks on a full pipe); otherwise stdout is discarded.
 */
export async function startProcess(args, env, port, healthPath = '/health/live', timeoutMs = 60_000, { readStdout } = {}) {
  const stdout = readStdout ? 'pipe' : 'ignore';
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'inherit'] });
  if (readStdout) readStdout(child.stdout);
  let exited = false;
  child.once('exit', () => (exited = true));
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if (exited) throw new Error(`${args[0]} exited before answering`);
    if (await answers(port, healthPath)) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`${args[0]} did not answer within ${timeoutMs / 1000} s`);
}

