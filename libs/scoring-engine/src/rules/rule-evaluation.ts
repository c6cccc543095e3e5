import type { RuleAction } from '@ringfence/contracts';
import { ACTION_SEVERITY } from '../decision';
import type { RuleTransactionOptimisation, RuleVersion } from './rule';
import { LINEAR_MATCHES, MATCHES } from './expression-bounds';
import { DEFAULT_RULE_BUDGET_MS, evaluateWithinBudget } from './rule-budget';
import type { CelContext, CompiledExpression, RuleEnvironment } from './rule-environment';

/** A rule version ready to run at its checkpoint. */
export interface CompiledRule {
  rule: RuleVersion;
  expression: CompiledExpression;
}

/** A rule whose expression was true. */
export interface TriggeredRule {
  ruleId: number;
  ruleVersion: number;
  ruleName: string;
  state: 'active' | 'passive';
  action: RuleAction;
  description: string;
  transactionOptimisation?: RuleTransactionOptimisation;
}

/**
 * Why a rule failed: its expression threw (a missing field, a type error at run time), it ran
 * past its time budget, or it was not evaluated because the checkpoint's rules had spent theirs.
 */
export type RuleFailureCause = 'error' | 'budget' | 'notEvaluated';

/** A rule that could not be evaluated: not triggered. */
export interface RuleFailure {
  ruleId: number;
  ruleVersion: number;
  error: string;
  cause: RuleFailureCause;
}

/**
 * ADR-0016: each rule's evaluation has a time budget, and the rules of one checkpoint
 * together a larger one, so that however many rules an account saves, one checkpoint's rules
 * cost at most `checkpointMs` plus the bounded cost of one expression (expression-bounds.ts),
 * each at most twice over when overruns are confirmed (rule-budget.ts), and pauses aside.
 * The defaults are ADR-0016's; the service passes the operator's settings
 * (RULE_BUDGET_MS, CHECKPOINT_RULES_BUDGET_MS).
 */
export interface RuleBudgets {
  ruleMs: number;
  checkpointMs: number;
}

export const DEFAULT_RULE_BUDGETS: RuleBudgets = Object.freeze({ ruleMs: DEFAULT_RULE_BUDGET_MS, checkpointMs: 25 });

export interface RulesOutcome {
  /** How many rules were evaluated. */
  evaluated: number;
  triggered: TriggeredRule[];
  failed: RuleFailure[];
  /** The strongest action of the triggered active rules; null when none triggered. */
  activeAction: RuleAction | null;
  /** The strongest action of every triggered rule, passive ones counted as active; null when none triggered. */
  actionWithPassive: RuleAction | null;
}

export const NO_RULES: RulesOutcome = Object.freeze({ evaluated: 0, triggered: [], failed: [], activeAction: null, actionWithPassive: null }) as RulesOutcome;

export function strongerAction(a: RuleAction | null, b: RuleAction | null): RuleAction | null {
  if (a === null) return b;
  if (b === null) return a;
  return ACTION_SEVERITY[b] > ACTION_SEVERITY[a] ? b : a;
}

/**
 * Compiles the versions that are neither disabled nor suspended; a version whose expression no
 * longer checks is skipped and returned apart.
 */
export function compileRules(environment: RuleEnvironment, versions: readonly RuleVersion[]): { compiled: CompiledRule[]; invalid: RuleVersion[] } {
  const compiled: CompiledRule[] = [];
  const invalid: RuleVersion[] = [];
  for (const rule of versions) {
    if (rule.state === 'disabled' || rule.suspension !== undefined) continue;
    const check = environment.check(rule.expression);
    if (check.valid) compiled.push({ rule, expression: environment.compile(rule.expression) });
    else invalid.push(rule);
  }
  return { compiled, invalid };
}

/**
 * Runs every rule against one context. A rule is triggered when its expression is exactly
 * `true`; one that throws, or runs past its budget on two evaluations in a row, is reported in
 * `failed` and never fails the checkpoint; once the checkpoint's budget is spent the remaining
 * rules are reported in `failed` as not evaluated.
 */
export function evaluateRules(rules: readonly CompiledRule[], context: CelContext, budgets: RuleBudgets = DEFAULT_RULE_BUDGETS): RulesOutcome {
  if (rules.length === 0) return NO_RULES;
  const triggered: TriggeredRule[] = [];
  const failed: RuleFailure[] = [];
  let activeAction: RuleAction | null = null;
  let actionWithPassive: RuleAction | null = null;
  // A rule reading an absent value fails by throwing, and capturing the stack of that error is
  // three quarters of its cost (~14 µs -> ~3.5 µs); nobody reads those stacks, only the message.
  // Evaluation is synchronous, so no other code runs while the limit is lowered.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let spentMs = 0;
  try {
    for (const { rule, expression } of rules) {
      if (spentMs > budgets.checkpointMs) {
        failed.push({ ruleId: rule.ruleId, ruleVersion: rule.ruleVersion, error: `not evaluated: the checkpoint's rules spent their time budget (${budgets.checkpointMs} ms)`, cause: 'notEvaluated' });
        continue;
      }
      // An overrun is evaluated once more before it counts, so that a collector's pause never fails a rule (rule-budget.ts).
      const { result, error, elapsedMs, overBudget } = evaluateWithinBudget(budgets.ruleMs, () => expression(context));
      spentMs += elapsedMs;
      if (overBudget) {
        // Over budget is a failure even when the expression finished: its answer is not used (ADR-0016).
        failed.push({ ruleId: rule.ruleId, ruleVersion: rule.ruleVersion, error: `over its time budget: ${elapsedMs.toFixed(2)} ms of ${budgets.ruleMs} ms`, cause: 'budget' });
        continue;
      }
      if (error !== undefined) {
        failed.push({ ruleId: rule.ruleId, ruleVersion: rule.ruleVersion, error: errorSummary(error), cause: 'error' });
        continue;
      }
      if (result !== true || rule.state === 'disabled') continue;
      triggered.push({
        ruleId: rule.ruleId,
        ruleVersion: rule.ruleVersion,
        ruleName: rule.name,
        state: rule.state,
        action: rule.action,
        description: rule.description,
        ...(rule.transactionOptimisation === undefined ? {} : { transactionOptimisation: rule.transactionOptimisation }),
      });
      if (rule.state === 'active') activeAction = strongerAction(activeAction, rule.action);
      actionWithPassive = strongerAction(actionWithPassive, rule.action);
    }
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  return { evaluated: rules.length, triggered, failed, activeAction, actionWithPassive };
}

/** The message's first line, speaking of `matches` as the author wrote it (expression-bounds.ts renames the call). */
function errorSummary(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].replaceAll(LINEAR_MATCHES, MATCHES);
}
