import type { DecisionFactRow, RuleTenant } from '@ringfence/scoring-engine';
import { hitRuleIdsOf } from '../typeorm/hit-rule-ids';

/** The longest text a fact keeps (an id past it, which the API refuses anyway, is left out). */
const MAX_FACT_TEXT = 1_000;

type Json = Record<string, unknown>;
const objectAt = (value: unknown): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined);
/** A text a column can hold: no NUL character (ADR-0010), bounded. */
const storable = (value: unknown): string | null => (typeof value === 'string' && value !== '' && value.length <= MAX_FACT_TEXT && !value.includes('\u0000') ? value : null);
const safeInteger = (value: unknown): number | null => (Number.isSafeInteger(value) ? (value as number) : null);

/** The payment of a payload: a PSP transaction's, an order's, a payout's or a refund's amount (minor units) and currency. */
function paymentOf(payload: Json | undefined): { amount: number | null; currency: string | null } {
  for (const [part, field] of [['transaction', 'amount'], ['order', 'price'], ['payout', 'amount'], ['refund', 'amount']] as const) {
    const object = objectAt(payload?.[part]);
    const amount = safeInteger(object?.[field]);
    if (amount !== null) return { amount, currency: storable(object?.currency) };
  }
  return { amount: null, currency: null };
}

/**
 * The facts the overview counts of one decision event as recorded (`CheckpointScorer`'s event,
 * every part optional as an older one may lack it); null for an event without the scoreId,
 * checkpoint and time that every kept decision has.
 */
export function decisionFactOf(tenant: RuleTenant, event: Json): DecisionFactRow | null {
  const scoreId = storable(event.scoreId);
  const checkpoint = storable(event.ruleCheckpoint);
  const eventTime = safeInteger(event.timestamp);
  if (scoreId === null || checkpoint === null || eventTime === null) return null;
  const recommendation = objectAt(event.recommendation);
  const subject = objectAt(event.subject);
  const payload = objectAt(objectAt(event.context)?.payload);
  const score = objectAt(objectAt(event.signals)?.model)?.score;
  const subjectId = storable(subject?.id);
  return {
    ...tenant,
    scoreId,
    eventTime,
    checkpoint,
    action: storable(recommendation?.action),
    source: storable(recommendation?.source),
    modelScore: typeof score === 'number' && Number.isFinite(score) ? score : null,
    subjectKind: subjectId === null ? null : storable(subject?.kind),
    subjectId,
    transactionId: storable(objectAt(payload?.transaction)?.transactionId),
    ...paymentOf(payload),
    ruleIds: hitRuleIdsOf(event),
  };
}
