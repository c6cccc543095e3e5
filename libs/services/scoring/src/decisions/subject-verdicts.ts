import { setTimeout as delay } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { BusTimeoutError, BusUnavailableError } from '@ringfence/bus';
import type { MessageEnvelope } from '@ringfence/contracts';
import { hasUnforgivenChargeback } from '@ringfence/entities';
import type { CheckpointSubject } from '../checkpoint-definition';
import { CheckpointFacts } from '../checkpoint-facts';

/** What the labels and chargebacks known now say of a decision's subject. */
export type Verdict = 'fraud' | 'genuine' | 'unknown';

/** Subjects whose labels and chargebacks are asked at once. */
const SUBJECT_BATCH = 50;

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

/**
 * "Fraud" and "genuine" as backtests (decisions §11) and training (§12) read them, from what is
 * known now: a FRAUDSTER or FRAUDULENT label or an unforgiven chargeback (a PSP transaction
 * disputed and not forgiven marks its customer), and at refunds a REFUND_ABUSE label, is fraud;
 * GENUINE (NOT_REFUND_ABUSE at refunds) is genuine; anything else is unknown. Asked of the
 * owners (labelling, ingestion) once per subject, a batch at a time.
 */
@Injectable()
export class SubjectVerdicts {
  constructor(private readonly facts: CheckpointFacts) {}

  /** Adds to `verdicts` (keyed by `subjectKey`) each subject not in it yet. */
  async learn(message: MessageEnvelope<unknown>, subjects: Iterable<CheckpointSubject>, refund: boolean, verdicts: Map<string, Verdict>, patience = ASK_ONCE): Promise<void> {
    const unknown = new Map<string, CheckpointSubject>();
    for (const subject of subjects) if (!verdicts.has(subjectKey(subject))) unknown.set(subjectKey(subject), subject);
    const pending = [...unknown.entries()];
    for (let start = 0; start < pending.length; start += SUBJECT_BATCH) {
      await Promise.all(
        pending.slice(start, start + SUBJECT_BATCH).map(async ([key, subject]) => {
          verdicts.set(key, await this.patientVerdictOf(message, subject, refund, patience));
        }),
      );
    }
  }

  private async patientVerdictOf(message: MessageEnvelope<unknown>, subject: CheckpointSubject, refund: boolean, patience: VerdictPatience): Promise<Verdict> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.verdictOf(message, subject, refund);
      } catch (error) {
        const transient = error instanceof BusTimeoutError || error instanceof BusUnavailableError;
        if (!transient || attempt >= patience.attempts) throw error;
        await delay(Math.min(MAX_DELAY_MS, patience.firstDelayMs * 2 ** (attempt - 1)));
      }
    }
  }

  private async verdictOf(message: MessageEnvelope<unknown>, subject: CheckpointSubject, refund: boolean): Promise<Verdict> {
    const [labels, entities] = await Promise.all([this.facts.currentLabels(message, subject), this.facts.entities(message, subject, [])]);
    const reviews = Object.values(labels).map((label) => label?.review);
    if (reviews.some((review) => review === 'FRAUDSTER' || review === 'FRAUDULENT' || (refund && review === 'REFUND_ABUSE'))) return 'fraud';
    if (subject.kind === 'customer' && entities.subject !== null && hasUnforgivenChargeback(entities.subject.fields)) return 'fraud';
    if (reviews.some((review) => review === 'GENUINE' || (refund && review === 'NOT_REFUND_ABUSE'))) return 'genuine';
    return 'unknown';
  }
}

export const subjectKey = (subject: CheckpointSubject): string => `${subject.kind}:${subject.id}`;
