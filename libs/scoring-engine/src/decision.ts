import type { Action } from './customer-score';

/** decisions §1: which part of the service decided, in order of precedence. */
export type DecisionSource = 'MANUAL_REVIEW' | 'CHARGEBACK' | 'RULE' | 'LOOKUP' | 'NETWORK' | 'RINGFENCE';

/** What is known about the subject of a checkpoint besides the model's score. */
export interface DecisionSignals {
  /**
   * The subject's current fraud label (PAYMENT_FRAUD for customers, SUPPLIER_FRAUD for
   * suppliers), or null when unreviewed.
   */
  label: string | null;
  /** Linked to a chargeback that is not forgiven (decisions §4). */
  unforgivenChargeback: boolean;
  /** An active rule's action, when one decided. */
  ruleAction: Action | null;
  /** Known-fraud indicators of the payload found in the lookup store. */
  knownFraudIndicators: number;
  /** Graph proximity to fraud: edges to the nearest fraudster, -1 when none is near. */
  hopsToFraud: number;
  /** The model's verdict. */
  model: { score: number; action: Action };
}

export interface Decision {
  action: Action;
  source: DecisionSource;
  score: number;
}

const LABEL_ACTIONS: Record<string, Action> = {
  FRAUDSTER: 'PREVENT',
  FRAUDULENT: 'PREVENT',
  POTENTIALLY_FRAUDSTER: 'REVIEW',
  GENUINE: 'ALLOW',
  POTENTIALLY_GENUINE: 'ALLOW',
};

/** A fraudster this close in the graph (customer–attribute–customer is 2) makes the answer REVIEW. */
export const NETWORK_REVIEW_HOPS = 2;

/**
 * Applies decisions §1's precedence: MANUAL_REVIEW, CHARGEBACK, RULE, LOOKUP, NETWORK, then the
 * model (RINGFENCE). The score stays the model's, so analysts can still compare it with the
 * action; a manual verdict or a chargeback moves it to the matching end of the scale.
 */
export function decide(signals: DecisionSignals): Decision {
  const { model } = signals;
  const labelAction = signals.label ? LABEL_ACTIONS[signals.label] : undefined;
  if (labelAction) return { action: labelAction, source: 'MANUAL_REVIEW', score: labelAction === 'PREVENT' ? 100 : labelAction === 'ALLOW' ? 0 : model.score };
  if (signals.unforgivenChargeback) return { action: 'PREVENT', source: 'CHARGEBACK', score: 100 };
  if (signals.ruleAction) return { action: signals.ruleAction, source: 'RULE', score: model.score };
  if (signals.knownFraudIndicators > 0) return { action: 'PREVENT', source: 'LOOKUP', score: Math.max(model.score, 90) };
  if (signals.hopsToFraud > 0 && signals.hopsToFraud <= NETWORK_REVIEW_HOPS && model.action === 'ALLOW') {
    return { action: 'REVIEW', source: 'NETWORK', score: Math.max(model.score, 50) };
  }
  return { action: model.action, source: 'RINGFENCE', score: model.score };
}
