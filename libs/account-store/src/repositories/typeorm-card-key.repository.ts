import type { CardKeyPairRecord, CardKeyRepository } from '@ringfence/accounts';
import type { Environment } from '@ringfence/contracts';
import { queryRows } from '@ringfence/persistence';
import type { DataSource, Repository } from 'typeorm';
import { CardKeyPairEntity } from '../entities/card-key-pair.entity';

// A pair whose index another process took at the same moment is not stored (the caller retries
// with the next index), so a rotation never overwrites a key that ciphers may name.
const INSERT_KEY_PAIR = `
  INSERT INTO card_key_pairs (account_id, environment, key_index, public_key, private_key, created_at)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (account_id, environment, key_index) DO NOTHING
  RETURNING key_index`;

// The first secret stored wins; every caller gets it.
const ENSURE_INSTRUMENT_SECRET = `
  WITH inserted AS (
    INSERT INTO card_instrument_secrets (account_id, environment, secret) VALUES ($1, $2, $3)
    ON CONFLICT (account_id, environment) DO NOTHING
    RETURNING secret)
  SELECT secret FROM inserted
  UNION ALL
  SELECT secret FROM card_instrument_secrets WHERE account_id = $1 AND environment = $2`;

/** Card-encryption key pairs and instrument secrets in `card_key_pairs` and `card_instrument_secrets`. */
export class TypeOrmCardKeyRepository implements CardKeyRepository {
  private readonly pairs: Repository<CardKeyPairRecord>;

  constructor(private readonly dataSource: DataSource) {
    this.pairs = dataSource.getRepository(CardKeyPairEntity);
  }

  listKeyPairs(accountId: string, environment: Environment): Promise<CardKeyPairRecord[]> {
    return this.pairs.find({ where: { accountId, environment }, order: { keyIndex: 'ASC' } });
  }

  async insertKeyPair(pair: CardKeyPairRecord): Promise<boolean> {
    const { accountId, environment, keyIndex, publicKey, privateKey, createdAt } = pair;
    const rows = await queryRows<{ key_index: number }>(this.dataSource, INSERT_KEY_PAIR, [accountId, environment, keyIndex, publicKey, privateKey, createdAt]);
    return rows.length === 1;
  }

  /**
   * A second try when the first found neither: another process stored the secret after this
   * statement's snapshot was taken (its insert waited for that one, then did nothing).
   */
  async instrumentSecret(accountId: string, environment: Environment, candidate: string): Promise<string> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const [row] = await queryRows<{ secret: string }>(this.dataSource, ENSURE_INSTRUMENT_SECRET, [accountId, environment, candidate]);
      if (row !== undefined) return row.secret;
    }
    throw new Error(`no instrument secret stored for account ${accountId} (${environment})`);
  }
}
