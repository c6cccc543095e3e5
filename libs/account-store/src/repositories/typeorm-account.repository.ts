import type { Account, AccountRepository, AccountSettings } from '@ringfence/accounts';
import type { DataSource, Repository } from 'typeorm';
import { AccountEntity } from '../entities/account.entity';
import { queryRows } from '@ringfence/persistence';

interface AccountRow {
  id: string;
  name: string;
  industry: string | null;
  settings: AccountSettings;
  created_at: Date;
}

// One statement: the merge happens in the database, so two concurrent changes of different
// settings both stay (a read-modify-write in here could lose one).
const MERGE_SETTINGS = `
  UPDATE accounts SET settings = settings || $2::jsonb
   WHERE id = $1
  RETURNING id, name, industry, settings, created_at`;

/** The tenant registry in `accounts`. Off the hot path: plain TypeORM repository calls. */
export class TypeOrmAccountRepository implements AccountRepository {
  private readonly accounts: Repository<Account>;

  constructor(private readonly dataSource: DataSource) {
    this.accounts = dataSource.getRepository(AccountEntity);
  }

  /** @throws QueryFailedError (unique violation, code 23505) when the id or name is taken. */
  async insert(account: Account): Promise<void> {
    // A copy: TypeORM writes generated values back into the object it is given.
    await this.accounts.insert({ ...account });
  }

  findById(accountId: string): Promise<Account | null> {
    return this.accounts.findOneBy({ id: accountId });
  }

  findByName(name: string): Promise<Account | null> {
    return this.accounts.findOneBy({ name });
  }

  /** Oldest first. */
  list(): Promise<Account[]> {
    return this.accounts.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async updateSettings(accountId: string, settings: AccountSettings): Promise<Account | null> {
    const [row] = await queryRows<AccountRow>(this.dataSource, MERGE_SETTINGS, [accountId, JSON.stringify(settings)]);
    return row === undefined ? null : { id: row.id, name: row.name, industry: row.industry, settings: row.settings, createdAt: row.created_at };
  }
}
