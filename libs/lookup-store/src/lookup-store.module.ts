import { Module } from '@nestjs/common';
import { LOOKUP_INDICATOR_REPOSITORY } from '@ringfence/lookup';
import { OwnsTables, PERSISTENCE_OPTIONS, type PersistenceOptions, cacheEntriesOf } from '@ringfence/persistence';
import { DataSource } from 'typeorm';
import { LOOKUP_STORE_SCHEMA } from './lookup-store.schema';
import { TalliedLookupIndicatorRepository } from './repositories/tallied-lookup-indicator.repository';
import { TypeOrmLookupIndicatorRepository } from './repositories/typeorm-lookup-indicator.repository';

/** The lookup service's indicators and evidence over their tables (`LOOKUP_INDICATOR_REPOSITORY`). */
@OwnsTables(LOOKUP_STORE_SCHEMA)
@Module({
  providers: [
    {
      provide: LOOKUP_INDICATOR_REPOSITORY,
      inject: [DataSource, PERSISTENCE_OPTIONS],
      // A sole writer answers checkpoints from its count of the evidence in memory (loaded at start).
      useFactory: async (dataSource: DataSource, options: PersistenceOptions) => {
        const indicators = new TypeOrmLookupIndicatorRepository(dataSource);
        return options.soleWriter ? TalliedLookupIndicatorRepository.load(indicators, cacheEntriesOf(options)) : indicators;
      },
    },
  ],
  exports: [LOOKUP_INDICATOR_REPOSITORY],
})
export class LookupStoreModule {}
