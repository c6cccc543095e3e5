import { Inject, Injectable } from '@nestjs/common';
import type { ReadDependency } from '@ringfence/bus';
import { type CheckpointScoredEvent, PAYLOAD_ROUTE_LIST } from '@ringfence/contracts';
import {
  DECISION_RECORD_REPOSITORY,
  type DecisionCursor,
  type DecisionListFilter,
  type DecisionRecordRepository,
  type RuleTenant,
  type StoredDecisionRecord,
} from '@ringfence/scoring-engine';

/** Every decision topic of the payload table (the checkpoints' feed). */
export const DECISION_TOPICS: readonly string[] = [...new Set(PAYLOAD_ROUTE_LIST.flatMap((route) => ('decisionTopic' in route ? [route.decisionTopic] : [])))];

/** The consumer group that keeps the decision records. */
export const DECISION_RECORDS_GROUP = 'scoring-decisions';

/** What a read of the records waits for (a decision read, a backtest, a training): every decision published before it is kept. */
export const DECISION_RECORDS_DEPENDENCY: ReadDependency = { group: DECISION_RECORDS_GROUP, topics: DECISION_TOPICS };


const key = (tenant: RuleTenant, scoreId: string) => JSON.stringify([tenant.accountId, tenant.environment, scoreId]);

/**
 * The decision records of `GET /v2/decisions/:scoreId` and of backtests, written behind: the
 * consumer of the decision topics adds each decision with a scoreId here, and `flush` (the
 * bus's beforeCommit, before the offsets) writes every pending one in one statement. Reads see
 * pending records too, so a decision is readable as soon as the consumer has handled it, which
 * is what the read's barrier waits for.
 *
 * Only decisions scoring made are kept: a rate-limited or degraded answer has no scoreId and no
 * context to evaluate rules on.
 */
@Injectable()
export class DecisionRecords {
  private pending = new Map<string, StoredDecisionRecord & RuleTenant>();
  /** The batch being written: no longer pending, maybe not yet in the store, so reads look here too. */
  private writing = new Map<string, StoredDecisionRecord & RuleTenant>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(@Inject(DECISION_RECORD_REPOSITORY) private readonly records: DecisionRecordRepository) {}

  /** `decidedAt`: when the service accepted the request it decided (the decision event's envelope), epoch ms. */
  add(tenant: RuleTenant, event: CheckpointScoredEvent, decidedAt: number): void {
    if (event.scoreId === undefined || event.ruleCheckpoint === undefined) return;
    const action = (event.recommendation as { action?: unknown } | undefined)?.action;
    // A text column holds no NUL character; the API refuses one (decisions §10), and a batch
    // that failed on one would be retried forever, so such an id is kept only inside the event.
    const subject = event.subject !== undefined && !event.subject.id.includes('\u0000') ? event.subject : undefined;
    this.pending.set(key(tenant, event.scoreId), {
      ...tenant,
      scoreId: event.scoreId,
      checkpoint: event.ruleCheckpoint,
      timestamp: event.timestamp,
      event: event as unknown as Record<string, unknown>,
      decidedAt,
      subjectKind: subject?.kind ?? null,
      subjectId: subject?.id ?? null,
      action: typeof action === 'string' ? action : null,
    });
  }

  async find(tenant: RuleTenant, scoreId: string): Promise<StoredDecisionRecord | null> {
    const recordKey = key(tenant, scoreId);
    const unwritten = this.pending.get(recordKey) ?? this.writing.get(recordKey);
    if (unwritten !== undefined) return unwritten;
    return this.records.find(tenant, scoreId);
  }

  /** Writes what is pending first, so a page sees every decision handled before it. */
  async page(tenant: RuleTenant, checkpoint: string, from: number, to: number, cursor: DecisionCursor | null, limit: number): Promise<StoredDecisionRecord[]> {
    if (cursor === null) await this.flush();
    return this.records.page(tenant, checkpoint, from, to, cursor, limit);
  }

  /**
   * Newest first, before `before`. Writes what is pending first on every read, not only the
   * first: a list's later page may be asked after newer decisions were handled, and a decision
   * whose payload time is older than the cursor belongs on it. Nothing pending costs nothing.
   */
  async list(tenant: RuleTenant, filter: DecisionListFilter, before: DecisionCursor | null, limit: number): Promise<StoredDecisionRecord[]> {
    await this.flush();
    return this.records.list(tenant, filter, before, limit);
  }

  /** Flushes run one after another; a failed write puts its records back for the next. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writePending());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = batch;
    try {
      await this.records.addAll([...batch.values()]);
    } catch (error) {
      for (const [recordKey, record] of batch) if (!this.pending.has(recordKey)) this.pending.set(recordKey, record);
      throw error;
    } finally {
      this.writing = new Map();
    }
  }
}
