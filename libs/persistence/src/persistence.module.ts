import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { BREACHED_CREDENTIALS_REPOSITORY, type BreachedCredentialsRepository, StoreBreachedCredentialsRepository } from '@ringfence/credentials';
import { SET_ASIDE_STORE, SetAsideRows, type SetAsideStore } from '@ringfence/platform';
import { DataSource } from 'typeorm';
import { openBreachedCredentials } from './breached-credentials.provider';
import { openDataSource } from './data-source.factory';
import { DatabaseHealth } from './database-health.service';
import { StartupLoads } from './startup-loads';
import { PERSISTENCE_OPTIONS, type PersistenceOptions } from './persistence.options';
import { openEventLog } from './event-log/event-log.provider';
import { LmdbEventLogStore } from './event-log/lmdb-event-log.store';
import { TypeOrmSetAsideStore } from './repositories/typeorm-set-aside.store';

/**
 * Opens the database (embedded PGlite, or PostgreSQL when `databaseUrl` is set), migrates the
 * shared tables and those of the owners in `options.schemas` before anything else starts, and
 * provides, globally: the `DataSource`, the options (`PERSISTENCE_OPTIONS`, for the owners' store
 * modules), the shared stores (the event log, on LMDB for a sole writer: `event-log/`; set-aside rows), the breached-credentials store,
 * `DatabaseHealth` and `StartupLoads`. Each service's repositories come from its own store
 * module, which its service module imports. The database closes last on shutdown, after the
 * other modules' destroy hooks (a bus draining its handlers may still write).
 */
@Global()
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(BREACHED_CREDENTIALS_REPOSITORY) private readonly breached: BreachedCredentialsRepository,
    @Inject(EVENT_LOG_STORE) private readonly eventLog: EventLogStore,
  ) {}

  static forRoot(options: PersistenceOptions): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        { provide: PERSISTENCE_OPTIONS, useValue: options },
        { provide: DataSource, useFactory: () => openDataSource(options) },
        { provide: EVENT_LOG_STORE, inject: [DataSource], useFactory: (dataSource: DataSource) => openEventLog(options, dataSource) },
        {
          provide: BREACHED_CREDENTIALS_REPOSITORY,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => openBreachedCredentials(options, dataSource),
        },
        // Rows the writers behind the requests could not store (ADR-0016), in this process's own database.
        { provide: SET_ASIDE_STORE, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmSetAsideStore(dataSource) },
        { provide: SetAsideRows, inject: [SET_ASIDE_STORE], useFactory: (store: SetAsideStore) => new SetAsideRows(store) },
        DatabaseHealth,
        StartupLoads,
      ],
      exports: [PERSISTENCE_OPTIONS, DataSource, EVENT_LOG_STORE, BREACHED_CREDENTIALS_REPOSITORY, SET_ASIDE_STORE, SetAsideRows, DatabaseHealth, StartupLoads],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.breached instanceof StoreBreachedCredentialsRepository) await this.breached.close();
    if (this.eventLog instanceof LmdbEventLogStore) await this.eventLog.close();
    if (this.dataSource.isInitialized) {
      await this.dataSource.destroy();
    }
  }
}
