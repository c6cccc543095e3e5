import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TestHttpClient } from '../support/https-client';
import { TEST_POSTGRES_URL } from '../support/postgres-database';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'tools', 'distributed-mode', 'ringfence-distributed.mjs');
const APPS = ['gateway', 'ingestion', 'graph', 'scoring', 'lookup', 'labelling'];

interface ScriptRun {
  process: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** The script as a newcomer runs it (`npm run distributed`), with this run's state directory and databases. */
function runScript(args: string[], env: Record<string, string>): ScriptRun {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    cwd: ROOT,
    // No KAFKA_BROKERS nor NEO4J_URL: the script starts both stand-ins, as on a fresh machine.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  return { process: child, output, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** Resolves with the printed `NAME=value` settings once the script says the gateway is ready. */
async function printedSettings(run: ScriptRun, timeoutMs: number): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  // The script prints its settings once, when every app is ready: wait for that line.
  while (!run.output.some((line) => line.includes('RINGFENCE_API_KEY=')) && Date.now() < deadline && run.process.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const settings = Object.fromEntries(run.output.map((line) => /^\s+(RINGFENCE_\w+)=(\S+)$/.exec(line)).flatMap((match) => (match ? [[match[1], match[2]]] : [])));
  if (settings.RINGFENCE_API_KEY === undefined) throw new Error(`the script printed no key:\n${run.output.slice(-30).join('\n')}`);
  return settings;
}

/** Waits for a line the script prints when a process it started ends (asynchronous: the process's exit). */
async function eventuallyOutput(run: ScriptRun, start: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!run.output.some((line) => line.startsWith(start))) {
    if (Date.now() > deadline) throw new Error(`the script did not print "${start}…":\n${run.output.slice(-20).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * docs/distributed-mode.md, "In one command": the script a newcomer runs creates the databases,
 * starts the Kafka and Bolt stand-ins and the six apps, prints where the gateway answers and with
 * which key, and stops everything it started; here it is run, a checkpoint is scored through what
 * it printed, one app is stopped (the next checkpoint's warning names it), and `stop` ends the
 * rest, every app with status 0.
 */
describe('the distributed mode in one command (tools/distributed-mode)', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'ringfence-distributed-script-'));
  // The stand-ins run under ts-node, whose compile cache goes to TMPDIR: removed with the state.
  const scratch = join(stateDir, 'tmp');
  mkdirSync(scratch);
  const prefix = `rf_script_${Date.now().toString(36)}`;
  let run: ScriptRun | undefined;

  afterAll(async () => {
    if (run && run.process.exitCode === null) {
      run.process.kill('SIGTERM');
      await run.exited;
    }
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      for (const app of APPS) await admin.query(`DROP DATABASE IF EXISTS ${prefix}_${app} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('starts everything, answers a scored checkpoint with the printed URL and key, names a stopped app in a degraded answer, and stops everything with status 0', async () => {
    const started = Date.now();
    // A generous budget for the checkpoint: this test is about the script, not the latency (the
    // first checkpoints after a start run cold code in six processes).
    run = runScript(['--state-dir', stateDir, '--ports', 'auto', '--no-build', '--database-prefix', prefix, '--postgres', TEST_POSTGRES_URL], { RPC_TIMEOUT_MS: '5000', TMPDIR: scratch });
    const settings = await printedSettings(run, 150_000);
    const ready = Date.now();

    const client = new TestHttpClient(settings.RINGFENCE_URL!, readFileSync(settings.RINGFENCE_CA_FILE!, 'utf8'));
    const body = { timestamp: Date.now(), customer: { customerId: 'cus-script-1', email: 'ada@example.com' } };
    const answer = await client.send({ method: 'POST', path: '/v2/customer', body, apiKey: settings.RINGFENCE_API_KEY });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 200, data: { action: 'ALLOW', source: 'RINGFENCE', score: expect.any(Number), warnings: [] } });
    expect(readFileSync(join(stateDir, 'gateway', 'bootstrap-key'), 'utf8').trim()).toBe(settings.RINGFENCE_API_KEY);

    // One app stopped (as an operator would, by the process id the script keeps): the next
    // checkpoint is degraded, and its warning names the app that did not answer, not scoring.
    process.kill(Number(readFileSync(join(stateDir, 'pids', 'ingestion.pid'), 'utf8')), 'SIGTERM');
    await eventuallyOutput(run, 'ringfence distributed: ingestion exited (status 0)', 20_000);
    const degraded = await client.send({ method: 'POST', path: '/v2/customer', body: { ...body, customer: { customerId: 'cus-script-2' } }, apiKey: settings.RINGFENCE_API_KEY });
    expect(degraded.body).toMatchObject({
      status: 200,
      data: { source: 'RINGFENCE', warnings: [{ class: 'degraded', msg: expect.stringMatching(/^The data was kept, but ingestion, which scoring waits for, did not answer within 5000 ms/) }] },
    });

    const stop = runScript(['stop', '--state-dir', stateDir], { TMPDIR: scratch });
    expect(await stop.exited).toBe(0);
    expect(await run.exited).toBe(0);
    for (const app of APPS.filter((name) => name !== 'ingestion')) expect(run.output).toContain(`ringfence distributed: ${app} stopped (status 0)`);
    expect(run.output).toEqual(expect.arrayContaining(['ringfence distributed: kafka-mock stopped (status 0)', 'ringfence distributed: bolt-server stopped (status 0)']));
    // Each app said that it stopped, in its own log.
    for (const app of APPS) expect(readFileSync(join(stateDir, 'logs', `${app}.log`), 'utf8')).toContain(`"msg":"${app} stopped"`);
    expect(existsSync(join(stateDir, 'ringfence-distributed.pid'))).toBe(false);
    process.stdout.write(`distributed script: ready in ${((ready - started) / 1000).toFixed(1)} s, stopped ${((Date.now() - ready) / 1000).toFixed(1)} s later\n`);
  }, 240_000);
});
