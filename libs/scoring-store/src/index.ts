export { TypeOrmRuleRepository } from './typeorm/typeorm-rule.repository';
export { TypeOrmDecisionRecordRepository } from './typeorm/typeorm-decision-record.repository';
export { TypeOrmDecisionStats } from './typeorm/typeorm-decision-stats';
export { TypeOrmModelRepository } from './typeorm/typeorm-model.repository';
export { TypeOrmVelocitySnapshotStore } from './velocity/typeorm-velocity-snapshot.store';
export * from './velocity/velocity-snapshot.store';
export { ScoringStoreModule } from './scoring-store.module';
export { SCORING_STORE_SCHEMA } from './scoring-store.schema';
