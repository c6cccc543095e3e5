import { type CheckpointScoredEvent, objectOf, payloadFacts } from '@ringfence/contracts';
import type { CaseDecision, CaseSubject } from './case';

/**
 * A decision event as a case keeps it, when it answered REVIEW about a customer or supplier;
 * null otherwise. The key is the decision's scoreId, else (rate-limited and degraded answers
 * have none) the event's id, so a replayed event is counted once. The payment's id, order and
 * amount (minor units) come from the request as sent (`context.payload`) when the event has it.
 */
export function reviewDecisionOf(eventId: string, event: CheckpointScoredEvent): { subject: CaseSubject; decision: CaseDecision } | null {
  const recommendation = objectOf(event.recommendation);
  if (recommendation?.action !== 'REVIEW' || event.subject === undefined) return null;
  const score = typeof recommendation.score === 'number' && Number.isFinite(recommendation.score) ? recommendation.score : 0;
  const payload = objectOf(event.context?.payload);
  const facts = payload === undefined ? undefined : payloadFacts(payload);
  const money = facts?.money;
  const decision: CaseDecision = {
    decisionKey: event.scoreId ?? `event:${eventId}`,
    scoreId: event.scoreId ?? '',
    checkpoint: event.ruleCheckpoint ?? event.checkpoint,
    action: 'REVIEW',
    score,
    timestamp: event.timestamp,
    ...(facts?.transaction?.id === undefined ? {} : { transactionId: facts.transaction.id }),
    ...(facts?.order?.id === undefined ? {} : { orderId: facts.order.id }),
    ...(money === undefined ? {} : { amount: money.minorUnits }),
    ...(money?.currency === undefined ? {} : { currency: money.currency.toUpperCase() }),
  };
  return { subject: { kind: event.subject.kind, id: event.subject.id }, decision };
}
