import type { Account, AccountRepository, AccountSettings, ApiKeyRecord, ApiKeyRepository } from '../account';

/** Map-backed repositories for domain tests; the real ones are tested in libs/persistence. */
export class InMemoryAccountRepository implements AccountRepository {
  readonly rows = new Map<string, Account>();
  async insert(account: Account) {
    this.rows.set(account.id, account);
  }
  async findById(accountId: string) {
    return this.rows.get(accountId) ?? null;
  }
  async findByName(name: string) {
    return [...this.rows.values()].find((account) => account.name === name) ?? null;
  }
  async list() {
    return [...this.rows.values()];
  }
  async updateSettings(accountId: string, settings: AccountSettings) {
    const account = this.rows.get(accountId);
    if (!account) return null;
    const given = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
    const updated = { ...account, settings: { ...account.settings, ...given } };
    this.rows.set(accountId, updated);
    return updated;
  }
}

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  readonly rows = new Map<string, ApiKeyRecord>();
  constructor(private readonly accounts: InMemoryAccountRepository) {}
  async insert(key: ApiKeyRecord) {
    this.rows.set(key.id, { ...key });
  }
  async findActiveByHash(keyHash: string) {
    const key = [...this.rows.values()].find((row) => row.keyHash === keyHash && row.revokedAt === null);
    const account = key ? await this.accounts.findById(key.accountId) : null;
    return key && account ? { key, account } : null;
  }
  async findByHash(keyHash: string) {
    return [...this.rows.values()].find((row) => row.keyHash === keyHash) ?? null;
  }
  async listForAccount(accountId: string) {
    return [...this.rows.values()].filter((row) => row.accountId === accountId);
  }
  async revoke(keyId: string, at: Date) {
    const key = this.rows.get(keyId);
    if (!key || key.revokedAt) return false;
    key.revokedAt = at;
    return true;
  }
}
