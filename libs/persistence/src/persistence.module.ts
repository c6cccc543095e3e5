import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ACCOUNT_REPOSITORY, API_KEY_CACHE_TTL_MS, API_KEY_REPOSITORY, CachingAccountRepository, CachingApiKeyRepository } from '@ringfence/accounts';
import { EVENT_LOG_STORE } from '@ringfence/bus';
import { ENTITY_DOCUMENT_REPOSITORY } from '@ringfence/entities';
import { LOOKUP_INDICATOR_REPOSITORY } from '@ringfence/lookup';
import {
  BREACHED_CREDENTIALS_REPOSITORY,
  type BreachedCredentialsRepository,
  RemoteBreachedCredentialsRepository,
  StoreBreachedCredentialsRepository,
  loadCredentialsKey,
  storeDirOf,
} from '@ringfence/credentials';
import { CALLBACK_DELIVERY_REPOSITORY } from '@ringfence/callbacks';
import { LABEL_REPOSITORY } from '@ringfence/labels';
import { SET_ASIDE_STORE, SetAsideRows, type SetAsideStore } from '@ringfence/platform';
import { DataSource } from 'typeorm';
import { openDataSource } from './data-source.factory';
import { DatabaseHealth } from './database-health.service';
import { StartupLoads } from './startup-loads';
import { type PersistenceOptions, SOLE_WRITER_CACHE_ENTRIES } from './persistence.options';
import { CachingLabelRepository } from './repositories/caching-label.repository';
import { TalliedLookupIndicatorRepository } from './repositories/tallied-lookup-indicator.repository';
import { WriteBehindEntityDocuments } from './repositories/write-behind-entity-document.repository';
import { TypeOrmAccountRepository } from './repositories/typeorm-account.repository';
import { TypeOrmApiKeyRepository } from './repositories/typeorm-api-key.repository';
import { TypeOrmEntityDocumentRepository } from './repositories/typeorm-entity-document.repository';
import { TypeOrmEventLogStore } from './repositories/typeorm-event-log.store';
import { TypeOrmLookupIndicatorRepository } from './repositories/typeorm-lookup-indicator.repository';
import { convertLegacyBreachedCredentials } from './repositories/breached-credentials-conversion';
import { TypeOrmLabelRepository } from './repositories/typeorm-label.repository';
import { TypeOrmVelocitySnapshotStore } from './repositories/typeorm-velocity-snapshot.store';
import { VELOCITY_SNAPSHOT_STORE } from './repositories/velocity-snapshot.store';
import { TypeOrmCallbackDeliveryRepository } from './repositories/typeorm-callback-delivery.repository';
import { TypeOrmSetAsideStore } from './repositories/typeorm-set-aside.store';

/**
 * How long keys and accounts are reused. Several processes learn of each other's revocations
 * and settings changes only by reading again; a sole writer makes every change itself, and each
 * drops what it affects, so its lookups never expire (and checkpoints never read them).
 */
const authenticationTtlMs = (options: PersistenceOptions): number => (options.soleWriter ? Number.POSITIVE_INFINITY : API_KEY_CACHE_TTL_MS);

/**
 * Opens the database (embedded PGlite, or PostgreSQL when `databaseUrl` is set), migrates it
 * before anything else starts, and provides, globally: the `DataSource`, the repositories
 * under their ports' tokens, `DatabaseHealth` and `StartupLoads`. The database closes last on shutdown,
 * after the other modules' destroy hooks (a bus draining its handlers may still write).
 */
@Global()
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(BREACHED_CREDENTIALS_REPOSITORY) private readonly breached: BreachedCredentialsRepository,
  ) {}

  static forRoot(options: PersistenceOptions): DynamicModule {
    const cacheEntries = options.cacheEntries ?? SOLE_WRITER_CACHE_ENTRIES;
    // The caches below share by fair part, not by ACCOUNT_SHARE_PERCENT (AccountShareLru): once
    // one is full, an account at or past its fair part (the bound ÷ the accounts holding entries)
    // cycles only its own, so no flood flushes another's. A fixed cap would only make a lone
    // account read its database more: a cache's eviction loses nothing.
    return {
      module: PersistenceModule,
      providers: [
        { provide: DataSource, useFactory: () => openDataSource(options) },
        // Every request authenticates and every checkpoint reads its account's settings; the
        // caches spare the database those statements. A sole writer loads them all at start.
        {
          provide: ACCOUNT_REPOSITORY,
          inject: [DataSource],
          useFactory: async (dataSource: DataSource) => {
            const accounts = new CachingAccountRepository(new TypeOrmAccountRepository(dataSource), authenticationTtlMs(options));
            if (options.soleWriter) await accounts.primeAll();
            return accounts;
          },
        },
        {
          provide: API_KEY_REPOSITORY,
          inject: [DataSource],
          useFactory: async (dataSource: DataSource) => {
            const keys = new CachingApiKeyRepository(new TypeOrmApiKeyRepository(dataSource), authenticationTtlMs(options));
            if (options.soleWriter) await keys.primeActive(await new TypeOrmAccountRepository(dataSource).list());
            return keys;
          },
        },
        {
          provide: ENTITY_DOCUMENT_REPOSITORY,
          // A sole writer keeps documents in memory and writes them behind, in one statement per
          // flush; with several ingestion processes every update is a compare-and-set on the
          // table, whose answer (the document as stored) the dispute pairing relies on.
          inject: [DataSource, StartupLoads, SetAsideRows],
          useFactory: (dataSource: DataSource, startupLoads: StartupLoads, setAside: SetAsideRows) => {
            const documents = new TypeOrmEntityDocumentRepository(dataSource);
            if (!options.soleWriter) return documents;
            const writeBehind = new WriteBehindEntityDocuments(documents, setAside, { cachedDocuments: cacheEntries });
            // Beside the start, with readiness waiting for it: documents are served meanwhile,
            // reading the table on every miss.
            options.logger?.info({ cachedDocuments: cacheEntries }, 'loading the stored entity keys and the most recent entity documents');
            const loading = writeBehind.loadStored().then((loaded) => {
              if (loaded.state === 'failed') options.logger?.warn({ err: loaded.error }, 'could not load the stored entity documents; checkpoints keep reading the table');
              else options.logger?.info({ entityDocuments: loaded }, 'stored entity keys and documents loaded: checkpoints read no entity from the table');
            });
            startupLoads.track('entity documents', loading);
            return writeBehind;
          },
        },
        { provide: EVENT_LOG_STORE, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmEventLogStore(dataSource) },
        {
          provide: LOOKUP_INDICATOR_REPOSITORY,
          inject: [DataSource],
          // A sole writer answers checkpoints from its count of the evidence in memory (loaded at start).
          useFactory: async (dataSource: DataSource) => {
            const indicators = new TypeOrmLookupIndicatorRepository(dataSource);
            return options.soleWriter ? TalliedLookupIndicatorRepository.load(indicators, cacheEntries) : indicators;
          },
        },
        {
          provide: BREACHED_CREDENTIALS_REPOSITORY,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => openBreachedCredentials(options, dataSource),
        },
        {
          provide: LABEL_REPOSITORY,
          inject: [DataSource],
          useFactory: async (dataSource: DataSource) => {
            const labels = new TypeOrmLabelRepository(dataSource, { soleWriter: options.soleWriter });
            return options.soleWriter ? CachingLabelRepository.load(labels, cacheEntries) : labels;
          },
        },
        {
          provide: CALLBACK_DELIVERY_REPOSITORY,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => new TypeOrmCallbackDeliveryRepository(dataSource),
        },
        // Scoring's velocity counters, written behind its consumer (libs/services/scoring, velocity).
        { provide: VELOCITY_SNAPSHOT_STORE, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmVelocitySnapshotStore(dataSource) },
        // Rows the writers behind the requests could not store (decisions §16), in this process's own database.
        { provide: SET_ASIDE_STORE, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmSetAsideStore(dataSource) },
        { provide: SetAsideRows, inject: [SET_ASIDE_STORE], useFactory: (store: SetAsideStore) => new SetAsideRows(store) },
        DatabaseHealth,
        StartupLoads,
      ],
      exports: [VELOCITY_SNAPSHOT_STORE, DataSource, ACCOUNT_REPOSITORY, API_KEY_REPOSITORY, ENTITY_DOCUMENT_REPOSITORY, EVENT_LOG_STORE, LABEL_REPOSITORY, LOOKUP_INDICATOR_REPOSITORY, BREACHED_CREDENTIALS_REPOSITORY, CALLBACK_DELIVERY_REPOSITORY, SET_ASIDE_STORE, SetAsideRows, DatabaseHealth, StartupLoads],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.breached instanceof StoreBreachedCredentialsRepository) await this.breached.close();
    if (this.dataSource.isInitialized) {
      await this.dataSource.destroy();
    }
  }
}

/** A process that never checks credentials gets this: a call means the wiring is wrong. */
const NO_BREACHED_CREDENTIALS: BreachedCredentialsRepository = {
  passwordPrefixesOf: () => Promise.reject(new Error('this process does not serve the breached-credentials store')),
  insert: () => Promise.reject(new Error('this process does not serve the breached-credentials store')),
  reload: () => Promise.reject(new Error('this process does not serve the breached-credentials store')),
};

/**
 * The breached-credentials store for this process (PersistenceOptions.credentials). The local
 * store also takes over, once, the pairs of the old `breached_credentials` table.
 */
async function openBreachedCredentials(options: PersistenceOptions, dataSource: DataSource): Promise<BreachedCredentialsRepository> {
  const credentials = options.credentials;
  if (!credentials) return NO_BREACHED_CREDENTIALS;
  if (credentials.mode === 'remote') return new RemoteBreachedCredentialsRepository(credentials.lookupUrl, credentials.internalKey);
  const key = loadCredentialsKey(options.dataDir, credentials.key);
  const repository = await StoreBreachedCredentialsRepository.open(storeDirOf(options.dataDir), key);
  await convertLegacyBreachedCredentials(dataSource, repository, options.logger);
  return repository;
}
