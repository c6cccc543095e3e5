import { Global, Module } from '@nestjs/common';
import {
  ACCOUNT_REPOSITORY,
  API_KEY_CACHE_TTL_MS,
  API_KEY_REPOSITORY,
  CARD_KEY_REPOSITORY,
  CachingAccountRepository,
  CachingApiKeyRepository,
  CachingSessionRepository,
  SESSION_REPOSITORY,
  USER_REPOSITORY,
} from '@ringfence/accounts';
import { OwnsTables, PERSISTENCE_OPTIONS, type PersistenceOptions } from '@ringfence/persistence';
import { DataSource } from 'typeorm';
import { ACCOUNT_STORE_SCHEMA } from './account-store.schema';
import { TypeOrmAccountRepository } from './repositories/typeorm-account.repository';
import { TypeOrmApiKeyRepository } from './repositories/typeorm-api-key.repository';
import { TypeOrmCardKeyRepository } from './repositories/typeorm-card-key.repository';
import { TypeOrmSessionRepository, TypeOrmUserRepository } from './repositories/typeorm-people.repository';

/**
 * How long keys and accounts are reused. Several processes learn of each other's revocations
 * and settings changes only by reading again; a sole writer makes every change itself, and each
 * drops what it affects, so its lookups never expire (and checkpoints never read them).
 */
const authenticationTtlMs = (options: PersistenceOptions): number => (options.soleWriter ? Number.POSITIVE_INFINITY : API_KEY_CACHE_TTL_MS);

/**
 * The gateway's account registry over its tables. Global: every route's access guard (the
 * runtime's `RequestCredentials`) looks API keys up in the process that runs the gateway; a
 * process without it knows no keys.
 */
@Global()
@OwnsTables(ACCOUNT_STORE_SCHEMA)
@Module({
  providers: [
    // Every request authenticates and every checkpoint reads its account's settings; the
    // caches spare the database those statements. A sole writer loads them all at start.
    {
      provide: ACCOUNT_REPOSITORY,
      inject: [DataSource, PERSISTENCE_OPTIONS],
      useFactory: async (dataSource: DataSource, options: PersistenceOptions) => {
        const accounts = new CachingAccountRepository(new TypeOrmAccountRepository(dataSource), authenticationTtlMs(options));
        if (options.soleWriter) await accounts.primeAll();
        return accounts;
      },
    },
    {
      provide: API_KEY_REPOSITORY,
      inject: [DataSource, PERSISTENCE_OPTIONS],
      useFactory: async (dataSource: DataSource, options: PersistenceOptions) => {
        const keys = new CachingApiKeyRepository(new TypeOrmApiKeyRepository(dataSource), authenticationTtlMs(options));
        if (options.soleWriter) await keys.primeActive(await new TypeOrmAccountRepository(dataSource).list());
        return keys;
      },
    },
    // Issue 37's named people: every console request authenticates its session, so session
    // lookups are cached like keys (sign-out, disabling and role changes drop them at once).
    { provide: USER_REPOSITORY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmUserRepository(dataSource) },
    {
      provide: SESSION_REPOSITORY,
      inject: [DataSource, PERSISTENCE_OPTIONS],
      useFactory: (dataSource: DataSource, options: PersistenceOptions) => new CachingSessionRepository(new TypeOrmSessionRepository(dataSource), authenticationTtlMs(options)),
    },
    // Card-encryption secrets: read by the gateway's card ciphers, which keep what they read.
    { provide: CARD_KEY_REPOSITORY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmCardKeyRepository(dataSource) },
  ],
  exports: [ACCOUNT_REPOSITORY, API_KEY_REPOSITORY, CARD_KEY_REPOSITORY, USER_REPOSITORY, SESSION_REPOSITORY],
})
export class AccountStoreModule {}
