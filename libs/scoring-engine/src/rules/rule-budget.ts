import { performance } from 'node:perf_hooks';

/**
 * The time budget of rule evaluations (decisions §16). Evaluation is synchronous, so nothing can
 * interrupt an expression from outside: an evaluation is measured, and one over its budget
 * counts as a failure. What can be interrupted from inside is: the rule functions this project
 * provides (`matches`) check the deadline of the evaluation under way before they start work,
 * so an expression that calls them after its budget is spent fails at that call.
 */

/** The default budget of one rule's evaluation (decisions §16), in milliseconds. */
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
