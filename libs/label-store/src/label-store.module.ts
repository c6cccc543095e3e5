import { Module } from '@nestjs/common';
import { CALLBACK_DELIVERY_REPOSITORY } from '@ringfence/callbacks';
import { CASE_REPOSITORY, FRAUD_SUBJECTS_QUERY, LABEL_REPOSITORY } from '@ringfence/labels';
import { OwnsTables, PERSISTENCE_OPTIONS, type PersistenceOptions, cacheEntriesOf } from '@ringfence/persistence';
import { DataSource } from 'typeorm';
import { LABEL_STORE_SCHEMA } from './label-store.schema';
import { CachingLabelRepository } from './repositories/caching-label.repository';
import { TypeOrmCallbackDeliveryRepository } from './repositories/typeorm-callback-delivery.repository';
import { TypeOrmLabelRepository } from './repositories/typeorm-label.repository';
import { TypeOrmFraudSubjects } from './repositories/typeorm-fraud-subjects';
import { TypeOrmCaseRepository } from './repositories/typeorm-case.repository';

/** The labelling service's labels (`LABEL_REPOSITORY`), review callbacks (`CALLBACK_DELIVERY_REPOSITORY`) and cases (`CASE_REPOSITORY`) over their tables. */
@OwnsTables(LABEL_STORE_SCHEMA)
@Module({
  providers: [
    {
      provide: LABEL_REPOSITORY,
      inject: [DataSource, PERSISTENCE_OPTIONS],
      useFactory: async (dataSource: DataSource, options: PersistenceOptions) => {
        const labels = new TypeOrmLabelRepository(dataSource, { soleWriter: options.soleWriter });
        return options.soleWriter ? CachingLabelRepository.load(labels, cacheEntriesOf(options)) : labels;
      },
    },
    // The overview's known fraud (GET /v2/stats/overview): subjects labelled FRAUDSTER.
    { provide: FRAUD_SUBJECTS_QUERY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmFraudSubjects(dataSource) },
    { provide: CALLBACK_DELIVERY_REPOSITORY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmCallbackDeliveryRepository(dataSource) },
    { provide: CASE_REPOSITORY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmCaseRepository(dataSource) },
  ],
  exports: [LABEL_REPOSITORY, FRAUD_SUBJECTS_QUERY, CALLBACK_DELIVERY_REPOSITORY, CASE_REPOSITORY],
})
export class LabelStoreModule {}
