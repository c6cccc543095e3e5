import { Module } from '@nestjs/common';
import { OwnsTables } from '@ringfence/persistence';
import { DECISION_RECORD_REPOSITORY, MODEL_REPOSITORY, RULE_REPOSITORY } from '@ringfence/scoring-engine';
import { DataSource } from 'typeorm';
import { SCORING_STORE_SCHEMA } from './scoring-store.schema';
import { TypeOrmDecisionRecordRepository } from './typeorm/typeorm-decision-record.repository';
import { TypeOrmModelRepository } from './typeorm/typeorm-model.repository';
import { TypeOrmRuleRepository } from './typeorm/typeorm-rule.repository';
import { TypeOrmVelocitySnapshotStore } from './velocity/typeorm-velocity-snapshot.store';
import { VELOCITY_SNAPSHOT_STORE } from './velocity/velocity-snapshot.store';

/** The scoring service's rules, decision records, models and velocity counters over its tables. */
@OwnsTables(SCORING_STORE_SCHEMA)
@Module({
  providers: [
    { provide: MODEL_REPOSITORY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmModelRepository(dataSource) },
    { provide: RULE_REPOSITORY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmRuleRepository(dataSource) },
    { provide: DECISION_RECORD_REPOSITORY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmDecisionRecordRepository(dataSource) },
    // Velocity counters, written behind scoring's consumer (libs/services/scoring, velocity).
    { provide: VELOCITY_SNAPSHOT_STORE, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmVelocitySnapshotStore(dataSource) },
  ],
  exports: [MODEL_REPOSITORY, RULE_REPOSITORY, DECISION_RECORD_REPOSITORY, VELOCITY_SNAPSHOT_STORE],
})
export class ScoringStoreModule {}
