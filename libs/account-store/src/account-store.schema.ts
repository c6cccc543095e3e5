import type { OwnedSchema } from '@ringfence/persistence';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { CardInstrumentSecretEntity, CardKeyPairEntity } from './entities/card-key-pair.entity';
import { CardKeyPairs1766036000000 } from './migrations/1766036000000-card-key-pairs.migration';
import { InitialAccounts1763800000000 } from './migrations/1763800000000-initial-accounts.migration';
import { UsersAndSessions1767037100000 } from './migrations/1767037100000-users-and-sessions.migration';
import { UserEntity, UserSessionEntity } from './entities/user.entity';

/** The gateway's account registry: `accounts`, `api_keys`, the card-encryption secrets, and the named people (`users`, `user_sessions`). */
export const ACCOUNT_STORE_SCHEMA: OwnedSchema = {
  owner: 'gateway',
  entities: [AccountEntity, ApiKeyEntity, CardKeyPairEntity, CardInstrumentSecretEntity, UserEntity, UserSessionEntity],
  migrations: [InitialAccounts1763800000000, CardKeyPairs1766036000000, UsersAndSessions1767037100000],
};
