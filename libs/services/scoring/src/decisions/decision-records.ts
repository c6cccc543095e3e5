import { Inject, Injectable } from '@nestjs/common';
import type { ReadDependency } from '@ringfence/bus';
import { type CheckpointScoredEvent, DECISION_TOPICS } from '@ringfence/contracts';
import { isRowRefusal } from '@ringfence/persistence';
import { PendingRows, type RowWriter, SetAsideRows } from '@ringfence/platform';
import {
  DECISION_RECORD_REPOSITORY,
  type DecisionCursor,
  type DecisionListFilter,
  type DecisionPeriod,
  type RuleHits,
  type DecisionRecordRepository,
  type RuleTenant,
  type StoredDecisionRecord,
} from '@ringfence/scoring-engine';

/** The writer's name in set-aside rows, metrics and logs. */
export const DECISION_RECORDS_WRITER = 'decision-records';

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
 *
 * One record the store refuses never holds up the others (ADR-0016): `RowWriter` writes the
 * rest of the batch, and after its attempts sets it aside (writer `decision-records`), so the
 * consumer's offsets move on and every later decision is recorded.
 */
@Injectable()
export class DecisionRecords {
  /** Pending records, and the batch being written (maybe not yet in the store), which reads look at too. */
  private readonly pending: PendingRows<PendingRecord>;
  private readonly writer: RowWriter<PendingRecord>;

  constructor(
    @Inject(DECISION_RECORD_REPOSITORY) private readonly records: DecisionRecordRepository,
    setAside: SetAsideRows,
  ) {
    this.writer = setAside.writer<PendingRecord>(
      {
        name: DECISION_RECORDS_WRITER,
        writeAll: (batch) => records.addAll(batch),
        identify: (record) => ({ accountId: record.accountId, environment: record.environment, key: key(record, record.scoreId) }),
        isUnavailable: (error) => !isRowRefusal(error),
      },
      (row) => this.replay(row as PendingRecord),
    );
    this.pending = new PendingRows((record) => key(record, record.scoreId), (batch) => this.writer.write(batch));
  }

  /** `decidedAt`: when the service accepted the request it decided (the decision event's envelope), epoch ms. */
  add(tenant: RuleTenant, event: CheckpointScoredEvent, decidedAt: number): void {
    if (event.scoreId === undefined || event.ruleCheckpoint === undefined) return;
    const action = (event.recommendation as { action?: unknown } | undefined)?.action;
    // A text column holds no NUL character; the API refuses one (ADR-0010), and a batch
    // that failed on one would be retried forever, so such an id is kept only inside the event.
    const subject = event.subject !== undefined && !event.subject.id.includes('\u0000') ? event.subject : undefined;
    this.pending.add({
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
    const unwritten = this.pending.unwritten(recordKey);
    if (unwritten !== undefined) return unwritten;
    return this.records.find(tenant, scoreId);
  }

  /** Writes what is pending first, so a page sees every decision handled before it. */
  async page(tenant: RuleTenant, checkpoint: string, from: number, to: number, cursor: DecisionCursor | null, limit: number): Promise<StoredDecisionRecord[]> {
    if (cursor === null) await this.flush();
    return this.records.page(tenant, checkpoint, from, to, cursor, limit);
  }

  /** The span of a checkpoint's records (a backtest's default window), pending ones written first. */
  async period(tenant: RuleTenant, checkpoint: string): Promise<DecisionPeriod | null> {
    await this.flush();
    return this.records.period(tenant, checkpoint);
  }

  /** Every rule's hits (`GET /v2/rules`), pending decisions written first. */
  async ruleHits(tenant: RuleTenant, now: number): Promise<RuleHits[]> {
    await this.flush();
    return this.records.ruleHits(tenant, now);
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

  /** Flushes run one after another; records neither written nor set aside go back for the next. */
  flush(): Promise<void> {
    return this.pending.flush();
  }

  /** An operator's replay of a set-aside record: pending again, and written by a flush now. */
  private async replay(record: PendingRecord): Promise<void> {
    const recordKey = key(record, record.scoreId);
    if (!this.pending.isPending(recordKey)) this.pending.add(record);
    const failure: unknown = await this.flush().then(
      () => undefined,
      (error: unknown) => error,
    );
    if (this.pending.isPending(recordKey)) throw failure ?? new Error('the decision record is not written yet');
  }
}

type PendingRecord = StoredDecisionRecord & RuleTenant;
