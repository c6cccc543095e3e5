import { Module } from '@nestjs/common';
import { OwnsTables } from '@ringfence/persistence';
import { DECISION_RECORD_REPOSITORY, DECISION_STATS_QUERIES, MODEL_REPOSITORY, RULE_REPOSITORY } from '@ringfence/scoring-engine';
import { DataSource } from 'typeorm';
import { SCORING_STORE_SCHEMA } from './scoring-store.schema';
import { DECISION_SEARCH_KEY_STORE } from './search/decision-search-keys.store';
import { TypeOrmDecisionSearchKeys } from './search/typeorm-decision-search-keys.store';
import { LATEST_DECISION_STORE } from './evidence/latest-decisions.store';
import { TypeOrmLatestDecisions } from './evidence/typeorm-latest-decisions.store';
import { TypeOrmDecisionRecordRepository } from './typeorm/typeorm-decision-record.repository';
import { TypeOrmDecisionStats } from './typeorm/typeorm-decision-stats';
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
    // The overview's aggregates over the decision records (GET /v2/stats/overview).
    { provide: DECISION_STATS_QUERIES, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmDecisionStats(dataSource) },
    // Velocity counters, written behind scoring's consumer (libs/services/scoring, velocity).
    // Search keys of decisions (GET /v2/search), written behind scoring's consumer.
    { provide: DECISION_SEARCH_KEY_STORE, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmDecisionSearchKeys(dataSource) },
    // Each customer's latest decision (the scores of a network).
    { provide: LATEST_DECISION_STORE, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmLatestDecisions(dataSource) },
    { provide: VELOCITY_SNAPSHOT_STORE, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmVelocitySnapshotStore(dataSource) },
  ],
  exports: [MODEL_REPOSITORY, RULE_REPOSITORY, DECISION_RECORD_REPOSITORY, DECISION_STATS_QUERIES, VELOCITY_SNAPSHOT_STORE, DECISION_SEARCH_KEY_STORE, LATEST_DECISION_STORE],
})
export class ScoringStoreModule {}
