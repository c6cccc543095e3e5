import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurnOfEventLoop } from 'node:timers/promises';
import { AppError } from '@ringfence/platform';

/**
 * How long the gateway's wait for a backtest (REQUEST_TIMEOUT_MS) leaves it to work: the wait
 * less the time to answer, 500 ms (or half the wait when it is shorter), so that a backtest
 * past its bound is answered with why (400) rather than the gateway's 503 (ADR-0016).
 */
export function backtestDurationMs(requestTimeoutMs: number): number {
  return requestTimeoutMs - Math.min(ANSWER_MARGIN_MS, requestTimeoutMs / 2);
}

const ANSWER_MARGIN_MS = 500;

/**
 * Longest stretch a backtest evaluates without letting the event loop turn. Evaluation is
 * synchronous, and in the embedded mode scoring's event loop is the whole server's: a page of
 * heavy rules evaluated in one go would hold every account's checkpoints for seconds.
 */
export const BACKTEST_SLICE_MS = 10;

export interface BacktestLimits {
  /** Decisions evaluated at most: one more is a 400 naming `from`. */
  maxDecisions: number;
  /** Epoch ms: past it the backtest stops with a 400 naming `from`. */
  deadline: number;
  /** Aborted once nobody waits for the answer (the client went away, the requester's deadline passed). */
  signal: AbortSignal;
}

/**
 * A running backtest's bounds (ADR-0016): its decisions, its duration, and its request.
 * `nextStep` comes before each step of work (compiling a rule, evaluating a decision): it lets
 * the event loop turn once a slice of work is spent, which is also when the request's end (a
 * closed connection is an I/O event) can reach the backtest, and throws past the deadline or
 * once the request ended. `countDecision` throws past the decisions' bound.
 */
export class BacktestBounds {
  private evaluated = 0;
  private sliceStarted = performance.now();

  constructor(private readonly limits: BacktestLimits) {}

  get decisions(): number {
    return this.evaluated;
  }

  async nextStep(): Promise<void> {
    if (performance.now() - this.sliceStarted >= BACKTEST_SLICE_MS) {
      await nextTurnOfEventLoop();
      this.sliceStarted = performance.now();
    }
    this.assertWithinBounds();
  }

  countDecision(): void {
    this.evaluated += 1;
    if (this.evaluated > this.limits.maxDecisions) {
      throw new AppError('VALIDATION_FAILED', `from: the range holds more than ${this.limits.maxDecisions} decisions of the checkpoint; narrow from and to`);
    }
  }

  /** Throws once the request has ended or the deadline has passed. */
  assertWithinBounds(): void {
    // The abort's reason is what the bus recognises as an abandoned request: answered as such, not logged as a failure.
    this.limits.signal.throwIfAborted();
    if (Date.now() > this.limits.deadline) {
      throw new AppError('VALIDATION_FAILED', `from: the backtest ran out of time after ${this.evaluated} decisions; narrow from and to, or try fewer rules`);
    }
  }
}
