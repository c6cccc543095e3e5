import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'bin', 'ringfence.js');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * `ringfence credentials import FILE…` (ADR-0006, docs/credentials.md) against the embedded
 * app, as an operator runs it: the CLI writes the store under the server's DATA_DIR while the
 * server answers checks, then tells it to reload.
 */
describe('ringfence credentials import', () => {
  let service: EmbeddedService;
  let workDir: string;

  beforeAll(async () => {
    service = await startEmbeddedService();
    workDir = await mkdtemp(join(tmpdir(), 'ringfence-cli-credentials-'));
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const env = () => ({
    PATH: process.env.PATH ?? '',
    RINGFENCE_URL: `https://localhost:${(service.app.getHttpServer().address() as { port: number }).port}`,
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    DATA_DIR: service.dataDir,
  });
  const cli = (...args: string[]) => run(process.execPath, [CLI, ...args], { env: env(), maxBuffer: 16 * 1024 * 1024 });

  const check = (username: string, password: string) =>
    service.client.send<{ usernameBreached: boolean; passwordBreached: boolean; numBreachedPasswords: number }>({
      method: 'POST',
      path: '/v2/lookup/credentials/check',
      body: { username, passwordHash: sha256(password) },
      apiKey: TEST_BOOTSTRAP_KEY,
    });

  it('imports plain and gzip files, hashes plaintext, reports malformed lines, swaps the server over, and can be re-run', async () => {
    const plain = join(workDir, 'breach.txt');
    const lines = [
      'Ada@Example.com:first plaintext password',
      `ada@example.com:${sha256('second password, pre-hashed').toUpperCase()}`,
      'no colon on this line',
      '',
      ...Array.from({ length: 250 }, (_, index) => `bulk-${index}@example.com:pw-${index}`),
    ];
    await writeFile(plain, `${lines.join('\r\n')}\r\n`);
    const gz = join(workDir, 'more.txt.gz');
    await writeFile(gz, gzipSync('grace@example.com:gz password\nbroken\n'));

    const first = await cli('credentials', 'import', plain, gz);

    expect(JSON.parse(first.stdout)).toMatchObject({
      files: 2,
      lines: 256,
      pairs: 253,
      newPairs: 253,
      storedPairs: 253,
      malformed: { 'no-separator': 3, 'empty-username': 0, 'empty-password': 0, 'username-too-long': 0 },
      malformedLines: [
        { file: plain, line: 3 },
        { file: plain, line: 4 },
        { file: gz, line: 2 },
      ],
      resumed: false,
      reloaded: true,
    });
    expect(first.stderr).toContain('253 pairs read, 253 new');
    // The very next request sees the import (the CLI reloaded the server before returning).
    expect((await check('ada@example.com', 'first plaintext password')).body).toEqual({
      usernameBreached: true,
      passwordBreached: true,
      numBreachedPasswords: 2,
    });
    expect((await check('bulk-249@example.com', 'pw-249')).body).toMatchObject({ passwordBreached: true });
    expect((await check('GRACE@example.com ', 'gz password')).body).toMatchObject({ usernameBreached: true, passwordBreached: true });

    const again = await cli('credentials', 'import', plain, gz);
    expect(JSON.parse(again.stdout)).toMatchObject({ pairs: 253, newPairs: 0, storedPairs: 253 });
  });

  it('keeps neither usernames nor whole hashes on disk', async () => {
    const store = join(service.dataDir, 'credentials');
    const [generation] = (await readdir(store)).filter((entry) => entry.startsWith('gen-'));
    const files = await readdir(join(store, generation));
    const contents = Buffer.concat(await Promise.all(files.map((file) => readFile(join(store, generation, file)))));
    expect(contents.includes(Buffer.from('ada@example.com'))).toBe(false);
    expect(contents.includes(Buffer.from(sha256('pw-7'), 'hex'))).toBe(false);
    expect(contents.includes(Buffer.from(sha256('pw-7'), 'hex').subarray(0, 8))).toBe(true);
    expect(contents.includes(Buffer.from(sha256('bulk-7@example.com'), 'hex').subarray(0, 8))).toBe(false);
  });

  it('resumes after kill -9, while the server keeps answering from the previous generation', async () => {
    const big = join(workDir, 'big.txt');
    await writeFile(big, Array.from({ length: 400_000 }, (_, index) => `kill-${index}@example.com:pw-${index}\n`).join(''));
    const child = spawn(process.execPath, [CLI, 'credentials', 'import', big, '--threads', '1'], { env: env(), stdio: 'ignore' });
    // Killed once it has made progress (a run file or the next generation on disk). The import is
    // another process working at its own pace, asynchronous by design: its files are polled for.
    const store = join(service.dataDir, 'credentials');
    for (let waited = 0; waited < 60_000; waited += 50) {
      const entries = await readdir(store);
      const imports = entries.includes('import') ? await readdir(join(store, 'import')).catch(() => []) : [];
      if (imports.some((file) => file.startsWith('run-')) || entries.filter((entry) => entry.startsWith('gen-')).length > 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    expect((await check('ada@example.com', 'first plaintext password')).body).toMatchObject({ usernameBreached: true, numBreachedPasswords: 2 });

    const resumed = JSON.parse((await cli('credentials', 'import', big)).stdout) as { lines: number; storedPairs: number };
    expect(resumed).toMatchObject({ lines: 400_000, storedPairs: 400_253 });
    expect((await check('kill-399999@example.com', 'pw-399999')).body).toEqual({ usernameBreached: true, passwordBreached: true, numBreachedPasswords: 1 });
  }, 180_000);

  it('exits non-zero with the reason when a file cannot be read', async () => {
    await expect(cli('credentials', 'import', join(workDir, 'missing.txt'))).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no such file'),
    });
  });
});
