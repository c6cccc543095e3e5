import type { RingfenceConfig } from '@ringfence/platform';
import type { RuleBudgets } from '@ringfence/scoring-engine';

/**
 * The rules' time budgets as the operator set them (RULE_BUDGET_MS, CHECKPOINT_RULES_BUDGET_MS;
 * ADR-0016), in the form the engine takes: one reading for live checkpoints and backtests,
 * so that a backtest fails a rule exactly where a checkpoint would have.
 */
export function ruleBudgetsOf(config: Pick<RingfenceConfig, 'ruleBudgetMs' | 'checkpointRulesBudgetMs'>): RuleBudgets {
  return { ruleMs: config.ruleBudgetMs, checkpointMs: config.checkpointRulesBudgetMs };
}
