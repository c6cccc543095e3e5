/** Where the lines go: a pino logger, or anything with its argument order. */
export interface OutageLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/** How often an outage that goes on is counted in the log. */
export const OUTAGE_SUMMARY_EVERY_MS = 60_000;

export interface OutageLogOptions {
  /** What the failures do to the answers, for the log lines: e.g. `checkpoints answered degraded`. */
  effect: string;
  summaryEveryMs?: number;
  now?: () => number;
}

interface Outage {
  since: number;
  failures: number;
  lastSummaryAt: number;
  failuresSinceSummary: number;
}

/**
 * One log line per outage of a dependency, not one per request it fails: the first failure is
 * logged with its error, the next ones only counted, in a line every `summaryEveryMs` while the
 * outage goes on and in one when the dependency answers again. An outage under load would
 * otherwise write a warning per request, which buries everything else in the log.
 */
export class OutageLog {
  private readonly open = new Map<string, Outage>();
  private readonly summaryEveryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly logger: OutageLogger,
    private readonly options: OutageLogOptions,
  ) {
    this.summaryEveryMs = options.summaryEveryMs ?? OUTAGE_SUMMARY_EVERY_MS;
    this.now = options.now ?? Date.now;
  }

  /** `dependency` did not answer a request; `fields` (a traceId, the error) go with the first line only. */
  failed(dependency: string, fields: Record<string, unknown> = {}): void {
    const now = this.now();
    const outage = this.open.get(dependency);
    if (outage === undefined) {
      this.open.set(dependency, { since: now, failures: 1, lastSummaryAt: now, failuresSinceSummary: 0 });
      this.logger.warn(
        { dependency, ...fields },
        `${dependency} did not answer: ${this.options.effect}; later failures are counted, every ${this.summaryEveryMs / 1000} s and when it answers again`,
      );
      return;
    }
    outage.failures += 1;
    outage.failuresSinceSummary += 1;
    if (now - outage.lastSummaryAt < this.summaryEveryMs) return;
    this.logger.warn(
      { dependency, failures: outage.failuresSinceSummary, totalFailures: outage.failures, outageMs: now - outage.since },
      `${dependency} still does not answer: ${outage.failuresSinceSummary} more ${this.options.effect} in the last ${Math.round((now - outage.lastSummaryAt) / 1000)} s`,
    );
    outage.lastSummaryAt = now;
    outage.failuresSinceSummary = 0;
  }

  /** A request was answered: every open outage is over (what it waited for answered). */
  answered(): void {
    if (this.open.size === 0) return;
    const now = this.now();
    for (const [dependency, outage] of this.open) {
      this.logger.info(
        { dependency, totalFailures: outage.failures, outageMs: now - outage.since },
        `${dependency} answers again after ${outage.failures} ${this.options.effect} over ${Math.round((now - outage.since) / 1000)} s`,
      );
    }
    this.open.clear();
  }
}
