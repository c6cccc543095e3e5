import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Account, AccountAdministration, hashApiKey } from '@ringfence/accounts';
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

/** The account store with the database's unique account name (`uq_accounts_name`). */
class UniqueNameAccounts extends InMemoryAccountRepository {
  private readonly names = new Set<string>();

  override async insert(account: Account) {
    // Checked and taken at once, as the database's constraint does.
    if (this.names.has(account.name)) throw new Error('duplicate key value violates unique constraint "uq_accounts_name"');
    this.names.add(account.name);
    await super.insert(account);
  }
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

  it('creates the default account and a key in the distributed mode too (DATABASE_URL set), written to DATA_DIR/bootstrap-key', async () => {
    const accounts = new UniqueNameAccounts();
    const keys = new InMemoryApiKeyRepository(accounts);
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let shown = '';
    try {
      await start(accounts, keys, { DATABASE_URL: 'postgres://ringfence@127.0.0.1/ringfence' }).run();
      shown = write.mock.calls.map(([text]) => String(text)).join('');
    } finally {
      write.mockRestore();
    }
    const key = readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim();
    await expect(keys.findActiveByHash(hashApiKey(key))).resolves.toMatchObject({ account: { name: 'default' } });
    expect(shown).toContain(key);
  });

  it('creates one account and one key when several gateway replicas start at once on one database', async () => {
    const accounts = new UniqueNameAccounts();
    const keys = new InMemoryApiKeyRepository(accounts);
    const dataDirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'ringfence-bootstrap-replica-')));
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await Promise.all(
        dataDirs.map((replicaDir) => {
          const config = loadConfig({ DATA_DIR: replicaDir, DATABASE_URL: 'postgres://ringfence@127.0.0.1/ringfence' }, { port: 8443 });
          return new BootstrapAccountService(accounts, keys, config, recordingLogger().logger).onApplicationBootstrap();
        }),
      );
      const [account] = await accounts.list();
      expect((await accounts.list()).length).toBe(1);
      expect((await keys.listForAccount(account!.id)).length).toBe(1);
      expect(dataDirs.filter((replicaDir) => existsSync(join(replicaDir, 'bootstrap-key')))).toHaveLength(1);
      expect(write.mock.calls.filter(([text]) => String(text).includes('Sandbox secret key'))).toHaveLength(1);
    } finally {
      write.mockRestore();
      for (const replicaDir of dataDirs) rmSync(replicaDir, { recursive: true, force: true });
    }
  });
});
