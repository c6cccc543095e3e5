import type { BacktestMatchDto, RuleAction } from '@ringfence/contracts';
import type { StoredDecisionRecord } from '@ringfence/scoring-engine';
import type { DecisionVerdict } from '../decisions/labelling-policy';

/** Matches a backtest lists at most: the newest, so that the answer stays small however long the window. */
export const MAX_BACKTEST_MATCHES = 200;

/**
 * The evidence of a backtest: the decisions whose action changed or at which a tried rule
 * triggered, with what was decided on (the amount, where the checkpoint has one) and what is
 * known now. Decisions come oldest first; the newest MAX_BACKTEST_MATCHES are kept.
 */
export class BacktestMatches {
  private readonly kept: BacktestMatchDto[] = [];

  add(record: StoredDecisionRecord, features: Record<string, unknown>, before: RuleAction, after: RuleAction, verdict: DecisionVerdict['verdict']): void {
    const { amountMajorUnits: amount, currency } = features;
    this.kept.push({
      scoreId: record.scoreId,
      subjectId: record.subjectId,
      timestamp: record.timestamp,
      ...(typeof amount === 'number' ? { amount } : {}),
      ...(typeof currency === 'string' ? { currency } : {}),
      before,
      after,
      outcome: verdict === 'fraud' || verdict === 'genuine' ? verdict : null,
    });
    if (this.kept.length > MAX_BACKTEST_MATCHES) this.kept.shift();
  }

  /** Newest first. */
  list(): BacktestMatchDto[] {
    return [...this.kept].reverse();
  }
}
