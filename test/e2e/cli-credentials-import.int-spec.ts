import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'bin', 'ringfence.js');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `ringfence credentials import` (decisions §6) against the embedded app, as an operator runs it. */
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

  const cli = (...args: string[]) =>
    run(process.execPath, [CLI, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        RINGFENCE_URL: `https://localhost:${(service.app.getHttpServer().address() as { port: number }).port}`,
        ADMIN_API_KEY: TEST_ADMIN_KEY,
        DATA_DIR: service.dataDir,
      },
    });

  const check = (username: string, password: string) =>
    service.client.send<{ usernameBreached: boolean; passwordBreached: boolean; numBreachedPasswords: number }>({
      method: 'POST',
      path: '/v2/lookup/credentials/check',
      body: { username, passwordHash: sha256(password) },
      apiKey: TEST_BOOTSTRAP_KEY,
    });

  it('streams a corpus in batches with progress, hashes plaintext, skips lines without a colon, and can be re-run', async () => {
    const corpus = join(workDir, 'breach.txt');
    const lines = [
      'Ada@Example.com:first plaintext password',
      `ada@example.com:${sha256('second password, pre-hashed').toUpperCase()}`,
      'no colon on this line',
      '',
      ...Array.from({ length: 250 }, (_, index) => `bulk-${index}@example.com:pw-${index}`),
    ];
    await writeFile(corpus, `${lines.join('\r\n')}\r\n`);

    const first = await cli('credentials', 'import', corpus, '--batch-size', '100');

    expect(JSON.parse(first.stdout)).toEqual({
      lines: 254,
      sent: 252,
      inserted: 252,
      alreadyStored: 0,
      skipped: { 'no-separator': 2, 'empty-username': 0, 'empty-password': 0, 'username-too-long': 0 },
    });
    expect(first.stderr.trim().split('\n')).toHaveLength(3);
    expect(first.stderr).toContain('252 pairs sent');
    expect((await check('ada@example.com', 'first plaintext password')).body).toEqual({
      usernameBreached: true,
      passwordBreached: true,
      numBreachedPasswords: 2,
    });
    expect((await check('bulk-249@example.com', 'pw-249')).body).toMatchObject({ passwordBreached: true });

    const again = await cli('credentials', 'import', corpus);
    expect(JSON.parse(again.stdout)).toMatchObject({ sent: 252, inserted: 0, alreadyStored: 252 });
  });

  it('exits non-zero with the reason when the file cannot be read', async () => {
    await expect(cli('credentials', 'import', join(workDir, 'missing.txt'))).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('ENOENT'),
    });
  });
});
