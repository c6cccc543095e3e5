import { Module } from '@nestjs/common';
import { DECISION_RECORD_REPOSITORY, RULE_REPOSITORY } from '@ringfence/scoring-engine';
import { TypeOrmDecisionRecordRepository, TypeOrmRuleRepository } from '@ringfence/scoring-store';
import { DataSource } from 'typeorm';
import { CheckpointResponders } from './checkpoint-responders';
import { CheckpointFacts } from './checkpoint-facts';
import { CheckpointScorer } from './checkpoint-scorer';
import { DecisionRecords } from './decisions/decision-records';
import { DecisionsHandler } from './decisions/decisions.handler';
import { SubjectVerdicts } from './decisions/subject-verdicts';
import { RuleBacktest } from './rules/rule-backtest';
import { RuleBook } from './rules/rule-book';
import { ruleEnvironmentsProvider } from './rules/rule-environment.provider';
import { RulesHandler } from './rules/rules.handler';
import { VelocityModule } from './velocity.module';

/**
 * Answers checkpoint requests (features, rules, model, sources' precedence), owns the rules
 * (their API, the in-memory rule book, backtests) and the decision records, and publishes every
 * decision.
 */
@Module({
  imports: [VelocityModule],
  controllers: [CheckpointResponders, RulesHandler, DecisionsHandler],
  providers: [
    CheckpointScorer,
    CheckpointFacts,
    RuleBook,
    RuleBacktest,
    SubjectVerdicts,
    DecisionRecords,
    ruleEnvironmentsProvider,
    { provide: RULE_REPOSITORY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmRuleRepository(dataSource) },
    { provide: DECISION_RECORD_REPOSITORY, inject: [DataSource], useFactory: (dataSource: DataSource) => new TypeOrmDecisionRecordRepository(dataSource) },
  ],
})
export class ScoringModule {}
