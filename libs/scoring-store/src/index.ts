export { TypeOrmRuleRepository } from './typeorm/typeorm-rule.repository';
export { TypeOrmDecisionRecordRepository } from './typeorm/typeorm-decision-record.repository';
export { TypeOrmModelRepository } from './typeorm/typeorm-model.repository';
