import { rm } from 'node:fs/promises';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ACCOUNT_REPOSITORY, API_KEY_REPOSITORY, CachingAccountRepository, CachingApiKeyRepository } from '@ringfence/accounts';
import { EVENT_LOG_STORE } from '@ringfence/bus';
import { ENTITY_DOCUMENT_REPOSITORY } from '@ringfence/entities';
import { LOOKUP_INDICATOR_REPOSITORY } from '@ringfence/lookup';
import { BREACHED_CREDENTIALS_REPOSITORY, StoreBreachedCredentialsRepository } from '@ringfence/credentials';
import { LABEL_REPOSITORY } from '@ringfence/labels';
import { DataSource } from 'typeorm';
import type { DynamicModule } from '@nestjs/common';
import { AccountStoreModule } from '@ringfence/account-store';
import { EntityStoreModule, TypeOrmEntityDocumentRepository } from '@ringfence/entity-store';
import { LabelStoreModule, TypeOrmLabelRepository } from '@ringfence/label-store';
import { LookupStoreModule, TalliedLookupIndicatorRepository, TypeOrmLookupIndicatorRepository } from '@ringfence/lookup-store';
import { DatabaseHealth, PersistenceModule, type PersistenceOptions, TypeOrmEventLogStore } from '@ringfence/persistence';
import { EMBEDDED_OPEN_TIMEOUT_MS, buildAccount, makeMigratedDataDir } from '@ringfence/persistence/testing';
import { ALL_OWNERS } from './all-owners';

/** The persistence module with every owner's store module, as the standalone app has them. */
function withEveryStore(options: PersistenceOptions): DynamicModule {
  return {
    module: class EveryStoreModule {},
    imports: [PersistenceModule.forRoot({ ...options, schemas: ALL_OWNERS }), AccountStoreModule, EntityStoreModule, LookupStoreModule, LabelStoreModule],
  };
}

describe(PersistenceModule.name, () => {
  let dataDir: string;
  let app: INestApplicationContext;

  beforeAll(async () => {
    dataDir = await makeMigratedDataDir(...ALL_OWNERS);
    app = await NestFactory.createApplicationContext(withEveryStore({ dataDir, credentials: { mode: 'local' } }), { logger: false });
  }, EMBEDDED_OPEN_TIMEOUT_MS);

  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('provides each repository under its port token', () => {
    expect(app.get(ACCOUNT_REPOSITORY)).toBeInstanceOf(CachingAccountRepository);
    expect(app.get(API_KEY_REPOSITORY)).toBeInstanceOf(CachingApiKeyRepository);
    expect(app.get(ENTITY_DOCUMENT_REPOSITORY)).toBeInstanceOf(TypeOrmEntityDocumentRepository);
    expect(app.get(EVENT_LOG_STORE)).toBeInstanceOf(TypeOrmEventLogStore);
    expect(app.get(LOOKUP_INDICATOR_REPOSITORY)).toBeInstanceOf(TypeOrmLookupIndicatorRepository);
    expect(app.get(BREACHED_CREDENTIALS_REPOSITORY)).toBeInstanceOf(StoreBreachedCredentialsRepository);
    expect(app.get(LABEL_REPOSITORY)).toBeInstanceOf(TypeOrmLabelRepository);
  });

  it('provides the migrated DataSource before anything else starts', async () => {
    const dataSource = app.get(DataSource);

    expect(dataSource.isInitialized).toBe(true);
    await expect(dataSource.query('SELECT count(*)::int AS count FROM accounts')).resolves.toEqual([{ count: 0 }]);
  });

  it('reports the database ready', async () => {
    await expect(app.get(DatabaseHealth).isReady()).resolves.toBe(true);
  });
});

describe(`${PersistenceModule.name} for a sole writer`, () => {
  it(
    'bounds its in-memory state by cacheEntries',
    async () => {
      const dataDir = await makeMigratedDataDir(...ALL_OWNERS);
      const app = await NestFactory.createApplicationContext(withEveryStore({ dataDir, soleWriter: true, cacheEntries: 2 }), { logger: false });
      try {
        const account = buildAccount();
        await app.get(ACCOUNT_REPOSITORY).insert(account);
        const lookup = app.get<TalliedLookupIndicatorRepository>(LOOKUP_INDICATOR_REPOSITORY);
        for (const value of ['a@example.com', 'b@example.com', 'c@example.com']) {
          await lookup.add({ accountId: account.id, environment: 'live', industry: null }, { indicators: [{ kind: 'email', value, seenAt: 1 }], evidence: [{ evidenceKind: 'report', evidenceId: 'report', details: {} }] });
        }
        expect(lookup).toBeInstanceOf(TalliedLookupIndicatorRepository);
        expect(lookup.size).toBe(2);
      } finally {
        await app.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    EMBEDDED_OPEN_TIMEOUT_MS,
  );
});

describe(DatabaseHealth.name, () => {
  it(
    'reports the database not ready once it is closed, and closes it with the application',
    async () => {
      const dataDir = await makeMigratedDataDir(...ALL_OWNERS);
      try {
        const app = await NestFactory.createApplicationContext(withEveryStore({ dataDir }), {
          logger: false,
        });
        const health = app.get(DatabaseHealth);
        const dataSource = app.get(DataSource);

        await app.close();

        expect(dataSource.isInitialized).toBe(false);
        await expect(health.isReady()).resolves.toBe(false);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    EMBEDDED_OPEN_TIMEOUT_MS,
  );

  it('answers false within its timeout when the database does not answer', async () => {
    jest.useFakeTimers();
    try {
      const hanging = { isInitialized: true, query: () => new Promise(() => undefined) } as unknown as DataSource;
      const answer = new DatabaseHealth(hanging).isReady();

      await jest.advanceTimersByTimeAsync(1_000);

      await expect(answer).resolves.toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('answers false when the query fails', async () => {
    const failing = { isInitialized: true, query: () => Promise.reject(new Error('connection lost')) } as unknown as DataSource;

    await expect(new DatabaseHealth(failing).isReady()).resolves.toBe(false);
  });
});
