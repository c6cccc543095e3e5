import { setTimeout as delay } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { BusTimeoutError, BusUnavailableError } from '@ringfence/bus';
import {
  type CurrentLabelMessage,
  type CurrentPaymentReview,
  type LabelCategory,
  MAX_ENTITY_DOCUMENTS_PER_READ,
  MAX_PAYMENT_REVIEWS_PER_READ,
  type MessageEnvelope,
  type RuleCheckpoint,
} from '@ringfence/contracts';
import { type EntityDocument, hasUnforgivenChargeback, leafPath } from '@ringfence/entities';
import { chunks, exponentialBackoffMs } from '@ringfence/platform';
import type { StoredDecisionRecord } from '@ringfence/scoring-engine';
import type { CheckpointSubject } from '../checkpoint-definition';
import { CheckpointFacts } from '../checkpoint-facts';
import { type DecisionVerdict, type JudgedUnit, type PaymentDisputes, judgedUnitOf, verdictOf } from './labelling-policy';
import type { RecordedDecision } from './recorded-decision';

/** Subjects whose labels and chargebacks are asked at once. */
const SUBJECT_BATCH = 50;
/** Reads of transaction documents, or of payments' reviews, in flight at once (each names up to its contract's maximum). */
const PAYMENT_READS_IN_FLIGHT = 4;

/**
 * How long a reader off the request path (a training) keeps asking when an owner does not
 * answer in time: right after a bulk import an owner's consumer may still be catching up, and
 * its reads wait for it beyond one request's timeout. A backtest answers a request: it asks once.
 */
export interface VerdictPatience {
  attempts: number;
  firstDelayMs: number;
}

export const ASK_ONCE: VerdictPatience = { attempts: 1, firstDelayMs: 0 };
/** About a minute in all, doubling from a quarter of a second up to 8 s between attempts. */
export const PATIENT: VerdictPatience = { attempts: 10, firstDelayMs: 250 };
const MAX_DELAY_MS = 8_000;

/** What the owners said of a subject, kept for the other decisions of the same read. */
interface SubjectFacts {
  labels: Partial<Record<LabelCategory, CurrentLabelMessage>>;
  unforgivenChargeback: boolean;
}

/**
 * The subjects already asked about during one read (a training, a backtest): a customer's labels
 * and chargebacks are asked once however many of its decisions the read goes through. Payments
 * are asked per page: a transaction is decided once or twice, so keeping them would only grow.
 */
export class VerdictMemo {
  readonly subjects = new Map<string, SubjectFacts>();
}

/**
 * Judges decision records by the labelling policy (`labelling-policy.ts`), from what the owners
 * know now: the subjects' current labels (labelling) and, as the checkpoint needs them, the
 * customer's chargebacks or, at a payment, the decided payment's disputes (ingestion's documents)
 * and its current analyst's review (labelling, `…payment-reviews-of.v1`). Subjects are asked a
 * batch at a time; a page's payments are asked of both owners at once, transaction documents in
 * reads of `MAX_ENTITY_DOCUMENTS_PER_READ`, reviews in reads of `MAX_PAYMENT_REVIEWS_PER_READ`.
 */
@Injectable()
export class SubjectVerdicts {
  constructor(private readonly facts: CheckpointFacts) {}

  /** One verdict per record, in order: unknown for a record without a subject. */
  async judge(
    message: MessageEnvelope<unknown>,
    checkpoint: RuleCheckpoint,
    records: readonly StoredDecisionRecord[],
    memo: VerdictMemo,
    patience = ASK_ONCE,
  ): Promise<DecisionVerdict[]> {
    const unit = judgedUnitOf(checkpoint);
    const events = records.map((record) => record.event as RecordedDecision);
    const paymentIds = unit === 'payment' ? events.flatMap((event) => paymentIdOf(event) ?? []) : [];
    const [, disputes, reviews] = await Promise.all([
      this.learnSubjects(message, unit, events.flatMap((event) => event.subject ?? []), memo, patience),
      this.paymentDisputes(message, paymentIds, patience),
      this.paymentReviews(message, paymentIds, patience),
    ]);
    return records.map((record, index) => {
      const { subject } = events[index];
      if (subject === undefined) return { verdict: 'unknown' };
      const known = memo.subjects.get(subjectKey(subject));
      const paymentId = unit === 'payment' ? paymentIdOf(events[index]) : undefined;
      const payment = paymentId === undefined ? undefined : disputes.get(paymentId);
      return verdictOf(unit, {
        subjectKind: subject.kind,
        labels: known?.labels ?? {},
        unforgivenChargeback: known?.unforgivenChargeback ?? false,
        paymentDisputes: payment?.state ?? 'none',
        paymentDisputedAt: payment?.disputedAt,
        paymentReview: paymentId === undefined ? undefined : reviews.get(paymentId),
        decidedAt: record.decidedAt,
      });
    });
  }

  private async learnSubjects(message: MessageEnvelope<unknown>, unit: JudgedUnit, subjects: readonly CheckpointSubject[], memo: VerdictMemo, patience: VerdictPatience): Promise<void> {
    const unknown = new Map<string, CheckpointSubject>();
    for (const subject of subjects) if (!memo.subjects.has(subjectKey(subject))) unknown.set(subjectKey(subject), subject);
    const pending = [...unknown.entries()];
    for (let start = 0; start < pending.length; start += SUBJECT_BATCH) {
      await Promise.all(
        pending.slice(start, start + SUBJECT_BATCH).map(async ([key, subject]) => {
          memo.subjects.set(key, await patiently(patience, () => this.subjectFacts(message, unit, subject)));
        }),
      );
    }
  }

  private async subjectFacts(message: MessageEnvelope<unknown>, unit: JudgedUnit, subject: CheckpointSubject): Promise<SubjectFacts> {
    // At a payment the customer's chargebacks do not decide (the payment's own disputes do): not read.
    const readsChargebacks = subject.kind === 'customer' && unit !== 'payment';
    const [labels, entities] = await Promise.all([this.facts.currentLabels(message, subject), readsChargebacks ? this.facts.entities(message, subject, []) : null]);
    return { labels, unforgivenChargeback: entities?.subject != null && hasUnforgivenChargeback(entities.subject.fields) };
  }

  /** Each named transaction's disputes, as its document holds them. */
  private async paymentDisputes(message: MessageEnvelope<unknown>, transactionIds: readonly string[], patience: VerdictPatience): Promise<Map<string, DisputesOfPayment>> {
    const disputes = new Map<string, DisputesOfPayment>();
    await inBatches(transactionIds, MAX_ENTITY_DOCUMENTS_PER_READ, async (batch) => {
      const documents = await patiently(patience, () => this.facts.documents(message, batch.map((id) => ({ kind: 'transaction', id }))));
      batch.forEach((id, index) => disputes.set(id, disputesOf(documents[index] ?? undefined)));
    });
    return disputes;
  }

  /** Each named payment's current analyst's review; a payment without one is not in the map. */
  private async paymentReviews(message: MessageEnvelope<unknown>, transactionIds: readonly string[], patience: VerdictPatience): Promise<Map<string, CurrentPaymentReview>> {
    const reviews = new Map<string, CurrentPaymentReview>();
    await inBatches(transactionIds, MAX_PAYMENT_REVIEWS_PER_READ, async (batch) => {
      const answered = await patiently(patience, () => this.facts.paymentReviews(message, batch));
      batch.forEach((id, index) => {
        const review = answered[index];
        if (review != null) reviews.set(id, review);
      });
    });
    return reviews;
  }
}

/** Asks `read` for the distinct ids in batches of `size`, `PAYMENT_READS_IN_FLIGHT` batches at a time. */
async function inBatches(ids: readonly string[], size: number, read: (batch: string[]) => Promise<void>): Promise<void> {
  const batches = [...chunks([...new Set(ids)], size)];
  for (const inFlight of chunks(batches, PAYMENT_READS_IN_FLIGHT)) await Promise.all(inFlight.map(read));
}

/** Asks again, later, while an owner is only slow (a timeout, unavailable), up to `patience.attempts` in all. */
async function patiently<T>(patience: VerdictPatience, ask: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await ask();
    } catch (error) {
      const transient = error instanceof BusTimeoutError || error instanceof BusUnavailableError;
      if (!transient || attempt >= patience.attempts) throw error;
      await delay(exponentialBackoffMs(attempt, { initialDelayMs: patience.firstDelayMs, maxDelayMs: MAX_DELAY_MS, jitter: 0 }));
    }
  }
}

/** A payment's disputes, and when the first one not forgiven arrived. */
interface DisputesOfPayment {
  state: PaymentDisputes;
  disputedAt?: number;
}

/**
 * A transaction document's disputes: any not forgiven, else any (all forgiven), else none. When
 * a dispute arrived is the time its entry was recorded (the dispute's own timestamp: ingestion
 * merges `chargebacks.<id>.forgiven` at it).
 */
function disputesOf(document: EntityDocument | undefined): DisputesOfPayment {
  const chargebacks = document?.fields.chargebacks;
  if (document === undefined || typeof chargebacks !== 'object' || chargebacks === null || Object.keys(chargebacks).length === 0) return { state: 'none' };
  if (!hasUnforgivenChargeback(document.fields)) return { state: 'forgiven' };
  const times = Object.entries(chargebacks)
    .filter(([, entry]) => (entry as { forgiven?: unknown } | null)?.forgiven === false)
    .map(([disputeId]) => document.fieldTimestamps[leafPath('chargebacks', disputeId, 'forgiven')])
    .filter((time): time is number => typeof time === 'number');
  return times.length === 0 ? { state: 'unforgiven' } : { state: 'unforgiven', disputedAt: Math.min(...times) };
}

/** The decided transaction's id, from the request the decision recorded (a PSP transaction's `transaction.transactionId`). */
export function paymentIdOf(event: RecordedDecision): string | undefined {
  const transaction = (event.context?.payload as { transaction?: { transactionId?: unknown } } | undefined)?.transaction;
  return typeof transaction?.transactionId === 'string' && transaction.transactionId.length > 0 ? transaction.transactionId : undefined;
}

export const subjectKey = (subject: CheckpointSubject): string => `${subject.kind}:${subject.id}`;
