import { Module } from '@nestjs/common';
import { ScoringStoreModule } from '@ringfence/scoring-store';
import { CheckpointResponders } from './checkpoint-responders';
import { CheckpointScorer } from './checkpoint-scorer';
import { DecisionList } from './decisions/decision-list';
import { DecisionRecords } from './decisions/decision-records';
import { DecisionsHandler } from './decisions/decisions.handler';
import { DecisionSearchHandler } from './decisions/decision-search.handler';
import { DecisionSearchKeys } from './decisions/decision-search-keys';
import { DecisionEvidenceHandler } from './decisions/decision-evidence.handler';
import { DecisionFacts } from './stats/decision-facts';
import { DecisionStats } from './stats/decision-stats';
import { DecisionStatsHandler } from './stats/decision-stats.handler';
import { SubjectVerdicts } from './decisions/subject-verdicts';
import { RuleBacktest } from './rules/rule-backtest';
import { RuleBook } from './rules/rule-book';
import { ruleEnvironmentsProvider } from './rules/rule-environment.provider';
import { RulesHandler } from './rules/rules.handler';
import { defaultModelsProvider } from './models/default-models';
import { ModelBook } from './models/model-book';
import { DecisionExplainer } from './models/decision-explainer';
import { ModelTrainer, TRAINING_RUNNER, workerTrainingRunner } from './models/model-trainer';
import { ModelsHandler } from './models/models.handler';
import { TrainingExampleReader } from './models/training-examples';
import { VelocityModule } from './velocity.module';

/**
 * Answers checkpoint requests (features, rules, model, sources' precedence), owns the rules
 * (their API, the in-memory rule book, backtests), the learned models (their API, training, the
 * in-memory model book) and the decision records, and publishes every decision.
 */
@Module({
  imports: [ScoringStoreModule, VelocityModule],
  controllers: [CheckpointResponders, RulesHandler, DecisionsHandler, DecisionSearchHandler, DecisionEvidenceHandler, ModelsHandler, DecisionStatsHandler],
  providers: [
    CheckpointScorer,
    RuleBook,
    RuleBacktest,
    SubjectVerdicts,
    DecisionRecords,
    DecisionSearchKeys,
    DecisionList,
    DecisionStats,
    DecisionFacts,
    ruleEnvironmentsProvider,
    ModelBook,
    defaultModelsProvider,
    DecisionExplainer,
    ModelTrainer,
    TrainingExampleReader,
    { provide: TRAINING_RUNNER, useValue: workerTrainingRunner },
  ],
})
export class ScoringModule {}
