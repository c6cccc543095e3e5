import type { Account, AccountRepository } from '@ringfence/accounts';
import type { DataSource, Repository } from 'typeorm';
import { AccountEntity } from '../entities/account.entity';

/** The tenant registry in `accounts`. Off the hot path: plain TypeORM repository calls. */
export class TypeOrmAccountRepository implements AccountRepository {
  private readonly accounts: Repository<Account>;

  constructor(dataSource: DataSource) {
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
}
