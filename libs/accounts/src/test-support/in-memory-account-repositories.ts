import type { Account, AccountRepository, AccountSettings, ApiKeyRecord, ApiKeyRepository } from '../account';
import type { CardKeyPairRecord, CardKeyRepository } from '../card-key-pairs';
import type { Environment } from '@ringfence/contracts';

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

/** Card-encryption key pairs and instrument secrets in maps, as `TypeOrmCardKeyRepository` keeps them. */
export class InMemoryCardKeyRepository implements CardKeyRepository {
  readonly pairs: CardKeyPairRecord[] = [];
  readonly secrets = new Map<string, string>();
  async listKeyPairs(accountId: string, environment: Environment) {
    return this.pairs.filter((pair) => pair.accountId === accountId && pair.environment === environment).sort((a, b) => a.keyIndex - b.keyIndex);
  }
  async insertKeyPair(pair: CardKeyPairRecord) {
    if (this.pairs.some((stored) => stored.accountId === pair.accountId && stored.environment === pair.environment && stored.keyIndex === pair.keyIndex)) return false;
    this.pairs.push({ ...pair });
    return true;
  }
  async instrumentSecret(accountId: string, environment: Environment, candidate: string) {
    const key = `${environment}:${accountId}`;
    if (!this.secrets.has(key)) this.secrets.set(key, candidate);
    return this.secrets.get(key) as string;
  }
}
