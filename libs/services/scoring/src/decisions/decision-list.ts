import { Injectable } from '@nestjs/common';
import type {
  DecisionListPositionMessage,
  DecisionSummaryMessage,
  MessageEnvelope,
  ReadDecisionsReply,
  ReadDecisionsRequest,
  RuleAction,
  RuleCheckpoint,
  RulesBlockDto,
} from '@ringfence/contracts';
import type { DecisionCursor, DecisionListFilter, RuleTenant, StoredDecisionRecord } from '@ringfence/scoring-engine';
import type { CheckpointSubject } from '../checkpoint-definition';
import { CheckpointFacts } from '../checkpoint-facts';
import { DecisionRecords } from './decision-records';
import type { RecordedDecision } from './recorded-decision';
import { subjectKey } from './subject-verdicts';

/**
 * Reads of the records one request makes at most while filling a review-queue page. Past it the
 * page is answered as filled so far, with the cursor after the last record read, so a request's
 * cost stays bounded however many labelled decisions lie between open ones; the client goes on.
 */
export const MAX_LIST_READS = 5;

/** Subjects whose labels are asked at once (as SubjectVerdicts does). */
const LABEL_BATCH = 50;

/**
 * `GET /v2/decisions` (ADR-0014): the tenant's decisions newest first, filtered in SQL; with
 * `open`, only the REVIEW decisions whose subject has had no label applied since the decision
 * (the review queue). Labels belong to labelling: their current ones are asked of it per subject,
 * once per request, as backtests ask them. A label answered 2xx is in labelling's state when it
 * answers, so a decision leaves the queue from the request after its subject's label.
 *
 * "Since" compares the current labels' `eventTime` (labelling's clock when the review was
 * applied) with the decision's `decidedAt` (the service's clock when it accepted the request
 * decided): a label at or after it closes the decision. Only current labels are known here, so a
 * category cleared with UNREVIEWED counts as no label: the decision is open again.
 */
@Injectable()
export class DecisionList {
  constructor(
    private readonly records: DecisionRecords,
    private readonly facts: CheckpointFacts,
  ) {}

  async read(message: MessageEnvelope<ReadDecisionsRequest>): Promise<ReadDecisionsReply> {
    const { payload: request } = message;
    const tenant: RuleTenant = { accountId: message.accountId, environment: message.environment };
    const filter = filterOf(request);
    // One more than the page: a further record read is what says another page exists.
    const batch = request.limit + 1;
    const newestLabels = new Map<string, number>();
    const decisions: DecisionSummaryMessage[] = [];
    let before: DecisionCursor | null = request.after === undefined ? null : { timestamp: request.after.eventTime, scoreId: request.after.scoreId };

    for (let reads = 0; reads < MAX_LIST_READS; reads += 1) {
      const records = await this.records.list(tenant, filter, before, batch);
      if (request.open === true) await this.learnLabels(message, records, newestLabels);
      for (const record of records) {
        if (decisions.length === request.limit) return { decisions, next: positionOf(before) };
        if (request.open !== true || isOpen(record, newestLabels)) decisions.push(summaryOf(record));
        before = { timestamp: record.timestamp, scoreId: record.scoreId };
      }
      // A short read is the end of the list. A full one without `open` filled the page above.
      if (records.length < batch) return { decisions, next: null };
    }
    return { decisions, next: positionOf(before) };
  }

  /** The newest current label time of each subject of `records` not asked yet (-Infinity: none). */
  private async learnLabels(message: MessageEnvelope<unknown>, records: readonly StoredDecisionRecord[], newestLabels: Map<string, number>): Promise<void> {
    const unknown = new Map<string, CheckpointSubject>();
    for (const record of records) {
      const subject = subjectOf(record);
      if (subject !== null && !newestLabels.has(subjectKey(subject))) unknown.set(subjectKey(subject), subject);
    }
    const pending = [...unknown.entries()];
    for (let start = 0; start < pending.length; start += LABEL_BATCH) {
      await Promise.all(
        pending.slice(start, start + LABEL_BATCH).map(async ([key, subject]) => {
          const labels = await this.facts.currentLabels(message, subject);
          const times = Object.values(labels).map((label) => label?.eventTime ?? Number.NEGATIVE_INFINITY);
          newestLabels.set(key, Math.max(Number.NEGATIVE_INFINITY, ...times));
        }),
      );
    }
  }
}

function filterOf(request: ReadDecisionsRequest): DecisionListFilter {
  return {
    ...(request.checkpoint === undefined ? {} : { checkpoint: request.checkpoint }),
    // The review queue is REVIEW decisions; the gateway refuses `open` with another action.
    ...(request.open === true ? { action: 'REVIEW' } : request.action === undefined ? {} : { action: request.action }),
    ...(request.subjectType === undefined ? {} : { subjectKind: request.subjectType }),
    ...(request.subjectId === undefined ? {} : { subjectId: request.subjectId }),
    ...(request.from === undefined ? {} : { from: request.from }),
    ...(request.to === undefined ? {} : { to: request.to }),
  };
}

const positionOf = (cursor: DecisionCursor | null): DecisionListPositionMessage | null =>
  cursor === null ? null : { eventTime: cursor.timestamp, scoreId: cursor.scoreId };

function subjectOf(record: StoredDecisionRecord): CheckpointSubject | null {
  return record.subjectKind === null || record.subjectId === null ? null : { kind: record.subjectKind, id: record.subjectId };
}

/** A decision without a recorded subject cannot be labelled out of the queue, so it is never in it. */
function isOpen(record: StoredDecisionRecord, newestLabels: ReadonlyMap<string, number>): boolean {
  const subject = subjectOf(record);
  if (subject === null) return false;
  return (newestLabels.get(subjectKey(subject)) ?? Number.NEGATIVE_INFINITY) < record.decidedAt;
}

/** The answer's part of the event a list shows; `GET /v2/decisions/:scoreId` reads the rest. */
interface RecordedAnswer {
  action?: unknown;
  score?: unknown;
  source?: unknown;
  customerId?: unknown;
  supplierId?: unknown;
  rules?: RulesBlockDto;
}

function summaryOf(record: StoredDecisionRecord): DecisionSummaryMessage {
  const event = record.event as RecordedDecision;
  const answer = (event.recommendation ?? {}) as RecordedAnswer;
  const modelVersion = event.features?.modelVersion;
  const action = typeof answer.action === 'string' ? answer.action : record.action;
  return {
    scoreId: record.scoreId,
    checkpoint: record.checkpoint as RuleCheckpoint,
    action: action as RuleAction,
    score: typeof answer.score === 'number' ? answer.score : null,
    source: typeof answer.source === 'string' ? answer.source : null,
    subjectType: record.subjectKind,
    subjectId: record.subjectId,
    ...(typeof answer.customerId === 'string' ? { customerId: answer.customerId } : {}),
    ...(typeof answer.supplierId === 'string' ? { supplierId: answer.supplierId } : {}),
    eventTime: record.timestamp,
    decidedAt: record.decidedAt,
    rules: answer.rules ?? { triggered: [] },
    ...(event.explanation === undefined ? {} : { explanation: event.explanation as unknown as DecisionSummaryMessage['explanation'] }),
    ...(typeof modelVersion === 'string' ? { modelVersion } : {}),
  };
}
