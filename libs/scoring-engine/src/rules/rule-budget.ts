import { performance } from 'node:perf_hooks';

/**
 * The time budget of rule evaluations (ADR-0016). Evaluation is synchronous, so nothing can
 * interrupt an expression from outside: an evaluation is measured, and one over its budget
 * counts as a failure. What can be interrupted from inside is: the rule functions this project
 * provides (`matches`) check the deadline of the evaluation under way before they start work,
 * so an expression that calls them after its budget is spent fails at that call.
 *
 * The measurement is wall-clock, so it also counts what the rule did not cause: a pause of the
 * garbage collector or of the scheduler that falls inside the evaluation (measured: 12–28 ms,
 * once in tens of thousands of evaluations). A rule's result must not depend on one, so an
 * overrun is confirmed by evaluating the rule once more (`evaluateWithinBudget`): expressions
 * are pure, a pause does not repeat, a slow rule does. The worst case at most doubles.
 */

/** The default budget of one rule's evaluation (ADR-0016), in milliseconds. */
export const DEFAULT_RULE_BUDGET_MS = 1;

/** No evaluation under way: functions called outside one (the tests, the docs) are not bounded by time. */
const NO_DEADLINE = Number.POSITIVE_INFINITY;

let currentDeadline = NO_DEADLINE;
let currentBudgetMs = 0;

/** Thrown by a rule function once the evaluation under way has spent its budget. */
export class RuleBudgetExceeded extends Error {
  constructor(budgetMs: number) {
    super(`the rule spent its time budget (${budgetMs} ms)`);
  }
}

/** What one evaluation cost. */
export interface Measured<T> {
  result: T | undefined;
  error: unknown;
  elapsedMs: number;
}

/**
 * Runs one evaluation with a deadline `budgetMs` from now that rule functions can see, and
 * measures it. Never throws: the evaluation's error is returned.
 */
export function measureWithinBudget<T>(budgetMs: number, evaluate: () => T): Measured<T> {
  const started = performance.now();
  currentDeadline = started + budgetMs;
  currentBudgetMs = budgetMs;
  try {
    const result = evaluate();
    return { result, error: undefined, elapsedMs: performance.now() - started };
  } catch (error) {
    return { result: undefined, error, elapsedMs: performance.now() - started };
  } finally {
    currentDeadline = NO_DEADLINE;
  }
}

/** Throws `RuleBudgetExceeded` when the evaluation under way is past its deadline. */
export function assertWithinRuleBudget(): void {
  if (currentDeadline !== NO_DEADLINE && performance.now() > currentDeadline) throw new RuleBudgetExceeded(currentBudgetMs);
}

/** What a rule's evaluation came to once an overrun was confirmed or dismissed. */
export interface BudgetedEvaluation<T> extends Measured<T> {
  /** Past its budget on two evaluations in a row: the rule is slow, and its answer is not used. */
  overBudget: boolean;
}

/**
 * One rule's evaluation on its budget, with an overrun confirmed by a second evaluation: the
 * second's answer stands, and the rule is over budget only when both ran past it. `elapsedMs`
 * is the cheaper of the two, what the rule costs without a pause, so that a pause charged to
 * a checkpoint's budget does not leave its later rules unevaluated either. An error that is not
 * the budget's (a missing field) is the rule's answer as it is: it does not depend on time.
 */
export function evaluateWithinBudget<T>(budgetMs: number, evaluate: () => T): BudgetedEvaluation<T> {
  const first = measureWithinBudget(budgetMs, evaluate);
  // Fields spelled out: an object spread here cost 1.5 µs per rule, five times the evaluation (bench:rules).
  if (!ranPastBudget(first, budgetMs)) return { result: first.result, error: first.error, elapsedMs: first.elapsedMs, overBudget: false };
  const second = measureWithinBudget(budgetMs, evaluate);
  return { result: second.result, error: second.error, elapsedMs: Math.min(first.elapsedMs, second.elapsedMs), overBudget: ranPastBudget(second, budgetMs) };
}

/** Stopped by `matches` at its deadline, or finished after it (an answer given late is not used either). */
function ranPastBudget(measured: Measured<unknown>, budgetMs: number): boolean {
  return measured.error instanceof RuleBudgetExceeded || (measured.error === undefined && measured.elapsedMs > budgetMs);
}
