import type { BacktestRulesReply, RuleAction } from '@ringfence/contracts';
import type { CompiledRule, RulesOutcome } from '@ringfence/scoring-engine';
import type { DecisionVerdict } from '../decisions/labelling-policy';

const ACTIONS: readonly RuleAction[] = ['ALLOW', 'REVIEW', 'PREVENT'];
const noActions = (): Record<RuleAction, number> => ({ ALLOW: 0, REVIEW: 0, PREVENT: 0 });

/**
 * A backtest's counts as its decisions are evaluated again: per tried rule, how often it
 * triggered and failed; the actions before and after, and each change between them; and what
 * the labelled decisions say of the tried rules (precision and recall).
 */
export class BacktestTally {
  private readonly triggeredPerRule: number[];
  private readonly failedPerRule: number[];
  private readonly before = noActions();
  private readonly after = noActions();
  private readonly changes = new Map<string, number>();
  private readonly labelled = { fraud: 0, fraudTriggered: 0, genuine: 0, genuineTriggered: 0 };

  constructor(private readonly tried: readonly CompiledRule[]) {
    this.triggeredPerRule = tried.map(() => 0);
    this.failedPerRule = tried.map(() => 0);
  }

  /** One decision: the tried rules' outcome over it, the action it was answered and the one decided again, and what its labels say now. */
  count(outcome: RulesOutcome, answered: RuleAction, decided: RuleAction, verdict: DecisionVerdict['verdict']): void {
    const triggeredIds = new Set(outcome.triggered.map((rule) => rule.ruleId));
    const failedIds = new Set(outcome.failed.map((rule) => rule.ruleId));
    this.tried.forEach((rule, index) => {
      if (triggeredIds.has(rule.rule.ruleId)) this.triggeredPerRule[index] += 1;
      if (failedIds.has(rule.rule.ruleId)) this.failedPerRule[index] += 1;
    });
    this.before[answered] += 1;
    this.after[decided] += 1;
    if (decided !== answered) this.changes.set(`${answered}>${decided}`, (this.changes.get(`${answered}>${decided}`) ?? 0) + 1);
    const anyTriggered = outcome.triggered.length > 0;
    const { labelled } = this;
    if (verdict === 'fraud') {
      labelled.fraud += 1;
      if (anyTriggered) labelled.fraudTriggered += 1;
    } else if (verdict === 'genuine') {
      labelled.genuine += 1;
      if (anyTriggered) labelled.genuineTriggered += 1;
    }
  }

  /** The backtest's counts over the `evaluated` decisions counted (the answer but its window and matches). */
  reply(evaluated: number): Omit<BacktestRulesReply, 'from' | 'to' | 'matches'> {
    const { labelled } = this;
    const flagged = labelled.fraudTriggered + labelled.genuineTriggered;
    return {
      evaluated,
      rules: this.tried.map(({ rule }, index) => ({
        ...(rule.ruleId > 0 ? { ruleId: rule.ruleId } : {}),
        name: rule.name,
        triggered: this.triggeredPerRule[index],
        failed: this.failedPerRule[index],
      })),
      actions: { before: this.before, after: this.after },
      changed: ACTIONS.flatMap((fromAction) =>
        ACTIONS.flatMap((toAction) => {
          const count = this.changes.get(`${fromAction}>${toAction}`);
          return count === undefined ? [] : [{ from: fromAction, to: toAction, count }];
        }),
      ),
      labelled: {
        ...labelled,
        precision: flagged === 0 ? null : labelled.fraudTriggered / flagged,
        recall: labelled.fraud === 0 ? null : labelled.fraudTriggered / labelled.fraud,
      },
    };
  }
}
