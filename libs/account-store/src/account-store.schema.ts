import type { OwnedSchema } from '@ringfence/persistence';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { InitialAccounts1763800000000 } from './migrations/1763800000000-initial-accounts.migration';

/** The gateway's account registry: `accounts` and `api_keys`. */
export const ACCOUNT_STORE_SCHEMA: OwnedSchema = {
  owner: 'gateway',
  entities: [AccountEntity, ApiKeyEntity],
  migrations: [InitialAccounts1763800000000],
};
