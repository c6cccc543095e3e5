import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'bin', 'ringfence.js');

interface SendSummary {
  sent: number;
  answered: Record<string, number>;
  rejected: { count: number };
  actions: Record<'ALLOW' | 'REVIEW' | 'PREVENT', number>;
  latencyMs: { p50: number; p99: number };
  interrupted: boolean;
}

describe('ringfence simulate and import', () => {
  let service: EmbeddedService;
  let directory: string;

  beforeAll(async () => {
    service = await startEmbeddedService();
    directory = mkdtempSync(join(tmpdir(), 'cli-simulate-'));
  }, 60_000);

  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    await service?.close();
  });

  const env = () => ({
    PATH: process.env.PATH ?? '',
    RINGFENCE_URL: `https://localhost:${(service.app.getHttpServer().address() as { port: number }).port}`,
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    DATA_DIR: service.dataDir,
  });
  const cli = (...args: string[]) => run(process.execPath, [CLI, ...args], { env: env(), maxBuffer: 64 * 1024 * 1024 });

  const newAccount = async (name: string) => {
    const created = await service.client.send<{ accountId: string; keys: { secretTest: string } }>({ method: 'POST', path: '/admin/accounts', apiKey: TEST_ADMIN_KEY, body: { name } });
    expect(created.status).toBe(201);
    return created.body;
  };

  /** Distinct transaction ids the account's transactions topic holds (the warehouse feed of the embedded mode). */
  const storedTransactionIds = async (accountId: string) => {
    const exported = await cli('feed', 'export', 'ringfence.ingest.transaction.updated.v1', '--account', accountId);
    const ids = exported.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { payload: { transaction: { transactionId: string } } }).payload.transaction.transactionId);
    return new Set(ids);
  };

  it('drives the server with a simulated population and reports every answer', async () => {
    const account = await newAccount('simulate-send');
    const { stdout } = await cli('simulate', '--seed', '11', '--customers', '250', '--days', '3', '--settle-days', '0', '--send', '--key', account.keys.secretTest, '--concurrency', '8');
    const summary = JSON.parse(stdout) as SendSummary & { generated: { records: number; recordsByPath: Record<string, number> } };

    expect(summary.sent).toBe(summary.generated.records);
    expect(summary.sent).toBeGreaterThan(500);
    // The web SDK's client events (202), sent with a publishable key the CLI issued through the admin API (ADMIN_API_KEY).
    const clientEvents = summary.generated.recordsByPath['/v2/client/events'] ?? 0;
    expect(clientEvents).toBeGreaterThan(50);
    expect(summary.answered).toEqual({ '200': summary.sent - clientEvents, '202': clientEvents });
    expect(summary.rejected.count).toBe(0);
    expect(summary.actions.ALLOW + summary.actions.REVIEW + summary.actions.PREVENT).toBeGreaterThan(summary.sent / 3);
    expect(summary.latencyMs.p99).toBeGreaterThanOrEqual(summary.latencyMs.p50);
  }, 300_000);

  it('imports a generated file, resumes after an interruption, and loses nothing', async () => {
    const account = await newAccount('import-resume');
    const file = join(directory, 'traffic.jsonl.gz');
    const truth = join(directory, 'truth.jsonl');
    await cli('simulate', '--seed', '12', '--customers', '150', '--days', '3', '--settle-days', '20', '--fraud-rate', '0.1', '--out', file, '--truth', truth);
    const lines = gunzipSync(readFileSync(file)).toString('utf8').trim().split('\n');
    const transactionIds = new Set(lines.map((line) => JSON.parse(line) as { body: { transaction?: { transactionId: string } } }).flatMap((record) => (record.body.transaction ? [record.body.transaction.transactionId] : [])));
    expect(readFileSync(truth, 'utf8').trim().split('\n').length).toBeGreaterThan(0);
    const state = `${file}.import-state.json`;
    const completedThrough = () => (existsSync(state) ? (JSON.parse(readFileSync(state, 'utf8')) as { files: Record<string, { completedThroughLine: number; done: boolean }> }).files[file] : undefined);

    // Slowly, so that it is still running when it is interrupted.
    const first = spawn(process.execPath, [CLI, 'import', file, '--key', account.keys.secretTest, '--rate', '40', '--concurrency', '4'], { env: env() });
    let firstOut = '';
    first.stdout.on('data', (chunk: Buffer) => (firstOut += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => first.on('exit', resolve));
    for (let waited = 0; (completedThrough()?.completedThroughLine ?? 0) < 60 && waited < 60_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    first.kill('SIGINT');
    expect(await exited).toBe(130);
    const stopped = completedThrough()!;
    expect(stopped.done).toBe(false);
    expect(stopped.completedThroughLine).toBeGreaterThanOrEqual(60);
    expect(stopped.completedThroughLine).toBeLessThan(lines.length);
    const interrupted = (JSON.parse(firstOut) as { files: Array<SendSummary & { completedThroughLine: number }> }).files[0]!;
    expect(interrupted.interrupted).toBe(true);

    const { stdout } = await cli('import', file, '--key', account.keys.secretTest, '--concurrency', '8');
    const resumed = (JSON.parse(stdout) as { files: Array<SendSummary & { resumedFromLine: number; completedThroughLine: number; done: boolean }> }).files[0]!;
    expect(resumed).toMatchObject({ resumedFromLine: stopped.completedThroughLine, completedThroughLine: lines.length, done: true });
    expect(resumed.sent).toBe(lines.length - stopped.completedThroughLine);
    expect(Object.keys(resumed.answered).sort()).toEqual(['200', '202']);
    expect(resumed.answered['200']! + resumed.answered['202']!).toBe(resumed.sent);
    // At most `concurrency` lines above the resume point were sent twice; every line was answered.
    expect(interrupted.sent - stopped.completedThroughLine).toBeLessThanOrEqual(4);
    expect(completedThrough()).toMatchObject({ completedThroughLine: lines.length, done: true });
    expect(await storedTransactionIds(account.accountId)).toEqual(transactionIds);

    const again = JSON.parse((await cli('import', file, '--key', account.keys.secretTest)).stdout) as { files: Array<{ done: boolean; sent?: number }> };
    expect(again.files[0]).toMatchObject({ done: true });
    expect(again.files[0]!.sent).toBeUndefined();
  }, 300_000);
});
