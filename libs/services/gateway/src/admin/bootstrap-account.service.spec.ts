import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountAdministration, hashApiKey } from '@ringfence/accounts';
import { InMemoryAccountRepository, InMemoryApiKeyRepository } from '@ringfence/accounts/testing';
import { type Logger, type RingfenceConfig, loadConfig } from '@ringfence/platform';
import { BootstrapAccountService } from './bootstrap-account.service';

const BOOTSTRAP_KEY = 'sk_test_bootstrapservicespec01';

/** A logger that keeps what was logged at warn and info. */
function recordingLogger() {
  const lines: Array<{ level: 'info' | 'warn'; fields: unknown; message: string }> = [];
  const logger = {
    info: (fields: unknown, message: string) => lines.push({ level: 'info', fields, message }),
    warn: (fields: unknown, message: string) => lines.push({ level: 'warn', fields, message }),
  } as unknown as Logger;
  return { logger, lines };
}

describe(BootstrapAccountService.name, () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ringfence-bootstrap-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  function start(accounts: InMemoryAccountRepository, keys: InMemoryApiKeyRepository, env: Record<string, string>) {
    const config: RingfenceConfig = loadConfig({ DATA_DIR: dataDir, ...env }, { port: 8443 });
    const { logger, lines } = recordingLogger();
    return { run: () => new BootstrapAccountService(accounts, keys, config, logger).onApplicationBootstrap(), lines };
  }

  it('starts with a revoked BOOTSTRAP_API_KEY still set, leaves the key revoked and warns that it stays so', async () => {
    const accounts = new InMemoryAccountRepository();
    const keys = new InMemoryApiKeyRepository(accounts);
    await start(accounts, keys, { BOOTSTRAP_API_KEY: BOOTSTRAP_KEY }).run();
    const revoked = await keys.findByHash(hashApiKey(BOOTSTRAP_KEY));
    await new AccountAdministration(accounts, keys).revokeKey(revoked!.id);

    const restart = start(accounts, keys, { BOOTSTRAP_API_KEY: BOOTSTRAP_KEY });
    await restart.run();

    await expect(keys.findActiveByHash(hashApiKey(BOOTSTRAP_KEY))).resolves.toBeNull();
    expect(restart.lines).toEqual([{ level: 'warn', fields: { accountId: revoked!.accountId }, message: expect.stringContaining('BOOTSTRAP_API_KEY was revoked') }]);
  });

  it('says nothing on a later start while the key is active', async () => {
    const accounts = new InMemoryAccountRepository();
    const keys = new InMemoryApiKeyRepository(accounts);
    const first = start(accounts, keys, { BOOTSTRAP_API_KEY: BOOTSTRAP_KEY });
    await first.run();

    const restart = start(accounts, keys, { BOOTSTRAP_API_KEY: BOOTSTRAP_KEY });
    await restart.run();

    expect(first.lines.map((line) => line.message)).toEqual(['registered BOOTSTRAP_API_KEY on the default account']);
    expect(restart.lines).toEqual([]);
  });
});
