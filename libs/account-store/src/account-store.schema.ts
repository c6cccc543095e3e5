import type { OwnedSchema } from '@ringfence/persistence';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { CardInstrumentSecretEntity, CardKeyPairEntity } from './entities/card-key-pair.entity';
import { CardKeyPairs1766036000000 } from './migrations/1766036000000-card-key-pairs.migration';
import { InitialAccounts1763800000000 } from './migrations/1763800000000-initial-accounts.migration';

/** The gateway's account registry: `accounts`, `api_keys` and the card-encryption secrets. */
export const ACCOUNT_STORE_SCHEMA: OwnedSchema = {
  owner: 'gateway',
  entities: [AccountEntity, ApiKeyEntity, CardKeyPairEntity, CardInstrumentSecretEntity],
  migrations: [InitialAccounts1763800000000, CardKeyPairs1766036000000],
};
