import type { Account, AccountSettings, ApiKeyRecord, ApiKeyRepository, KeyKind } from '@ringfence/accounts';
import type { Environment } from '@ringfence/contracts';
import { IsNull, type DataSource, type Repository } from 'typeorm';
import { ApiKeyEntity } from '../entities/api-key.entity';
import { queryRows } from '@ringfence/persistence';

interface ActiveKeyRow {
  id: string;
  account_id: string;
  kind: KeyKind;
  environment: Environment;
  key_hash: string;
  display_prefix: string;
  created_at: Date;
  account_name: string;
  account_industry: string | null;
  account_settings: AccountSettings;
  account_created_at: Date;
}

// Every authenticated request runs this: one indexed lookup (uq_api_keys_key_hash) and the
// account by primary key, in one round trip.
const FIND_ACTIVE_BY_HASH = `
  SELECT k.id, k.account_id, k.kind, k.environment, k.key_hash, k.display_prefix, k.created_at,
         a.name AS account_name, a.industry AS account_industry, a.settings AS account_settings,
         a.created_at AS account_created_at
    FROM api_keys k
    JOIN accounts a ON a.id = k.account_id
   WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;

/** API keys in `api_keys`, stored only as hashes. */
export class TypeOrmApiKeyRepository implements ApiKeyRepository {
  private readonly keys: Repository<ApiKeyRecord>;

  constructor(private readonly dataSource: DataSource) {
    this.keys = dataSource.getRepository(ApiKeyEntity);
  }

  /** @throws QueryFailedError on a taken id or hash (23505) or an unknown account (23503). */
  async insert(key: ApiKeyRecord): Promise<void> {
    await this.keys.insert({ ...key });
  }

  async findActiveByHash(keyHash: string): Promise<{ key: ApiKeyRecord; account: Account } | null> {
    const [row] = await queryRows<ActiveKeyRow>(this.dataSource, FIND_ACTIVE_BY_HASH, [keyHash]);
    if (row === undefined) {
      return null;
    }
    return {
      key: {
        id: row.id,
        accountId: row.account_id,
        kind: row.kind,
        environment: row.environment,
        keyHash: row.key_hash,
        displayPrefix: row.display_prefix,
        createdAt: row.created_at,
        revokedAt: null,
      },
      account: {
        id: row.account_id,
        name: row.account_name,
        industry: row.account_industry,
        settings: row.account_settings,
        createdAt: row.account_created_at,
      },
    };
  }

  findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.keys.findOneBy({ keyHash });
  }

  /** Revoked keys included, oldest first. */
  listForAccount(accountId: string): Promise<ApiKeyRecord[]> {
    return this.keys.find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async revoke(keyId: string, at: Date): Promise<boolean> {
    const result = await this.keys.update({ id: keyId, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
  }
}
