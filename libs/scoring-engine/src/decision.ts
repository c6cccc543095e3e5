import type { Action } from './model/score-model';

/** ADR-0001: which part of the service decided, in order of precedence. */
export type DecisionSource = 'MANUAL_REVIEW' | 'CHARGEBACK' | 'RULE' | 'LOOKUP' | 'NETWORK' | 'RINGFENCE';

/**
 * What the known-fraud lookup says about the request's indicators: `own` when the account
 * itself reported one (PREVENT), `consortium` when enough distinct other accounts did (at most
 * REVIEW), null otherwise.
 */
export type LookupVerdict = 'own' | 'consortium' | null;

/** The voucher network of a redemption: successful uses of the code and the account's threshold. */
export interface VoucherNetworkSignal {
  uses: number;
  threshold: number;
  /** The uses reached the threshold under the account's comparison (the voucher check's ABUSE). */
  abuse: boolean;
}

/** What is known about the subject of a checkpoint besides the model's score. */
export interface DecisionSignals {
  /**
   * The subject's current labels in the categories that decide this checkpoint: PAYMENT_FRAUD
   * (customers) or SUPPLIER_FRAUD (suppliers), and REFUND_ABUSE at the refund checkpoint.
   * Unreviewed categories are left out.
   */
  labels: readonly string[];
  /** Linked to a chargeback that is not forgiven (ADR-0004). */
  unforgivenChargeback: boolean;
  /** An active rule's action, when one decided. */
  ruleAction: Action | null;
  /** The known-fraud lookup's verdict on the request's indicators. */
  lookup: LookupVerdict;
  /** Graph proximity to fraud: edges to the nearest fraudster, -1 when none is near. */
  hopsToFraud: number;
  /** A voucher redemption's network, when asked; null elsewhere or when the graph did not answer. */
  voucherNetwork?: VoucherNetworkSignal | null;
  /** The model's verdict. */
  model: { score: number; action: Action };
}

export interface Decision {
  action: Action;
  source: DecisionSource;
  score: number;
  /** Why, in a sentence, for the decision event (never part of an answer). */
  reason: string;
}

/** The action each label review implies; reviews not listed (UNREVIEWED) imply nothing. */
export const LABEL_ACTIONS: Readonly<Record<string, Action>> = {
  FRAUDSTER: 'PREVENT',
  FRAUDULENT: 'PREVENT',
  REFUND_ABUSE: 'PREVENT',
  POTENTIALLY_FRAUDSTER: 'REVIEW',
  GENUINE: 'ALLOW',
  POTENTIALLY_GENUINE: 'ALLOW',
  NOT_REFUND_ABUSE: 'ALLOW',
};

/** How strong an action is: PREVENT > REVIEW > ALLOW. */
export const ACTION_SEVERITY: Readonly<Record<Action, number>> = { ALLOW: 0, REVIEW: 1, PREVENT: 2 };

/** A fraudster this close in the graph (customer–attribute–customer is 2) makes the answer REVIEW. */
export const NETWORK_REVIEW_HOPS = 2;

/** The most severe action the labels imply, with the label that implies it; null when none does. */
function labelVerdict(labels: readonly string[]): { action: Action; label: string } | null {
  let verdict: { action: Action; label: string } | null = null;
  for (const label of labels) {
    const action = LABEL_ACTIONS[label];
    if (action !== undefined && (verdict === null || ACTION_SEVERITY[action] > ACTION_SEVERITY[verdict.action])) verdict = { action, label };
  }
  return verdict;
}

/**
 * Applies ADR-0001's precedence: MANUAL_REVIEW, CHARGEBACK, RULE, LOOKUP, NETWORK, then the
 * model (RINGFENCE). The score stays the model's, so analysts can still compare it with the
 * action; a manual verdict or a chargeback moves it to the matching end of the scale.
 *
 * - Labels: of the categories that apply, the most severe verdict wins (a GENUINE payment-fraud
 *   label does not clear a REFUND_ABUSE label at a refund).
 * - Lookup: the account's own indicator is PREVENT; other accounts' evidence alone is at most
 *   REVIEW, and never lowers what the model would answer.
 * - Network: a fraudster within `NETWORK_REVIEW_HOPS`, or a voucher network at the account's
 *   abuse threshold, makes an answer the model would ALLOW a REVIEW.
 */
export function decide(signals: DecisionSignals): Decision {
  const { model } = signals;
  const label = labelVerdict(signals.labels);
  if (label) {
    const score = label.action === 'PREVENT' ? 100 : label.action === 'ALLOW' ? 0 : model.score;
    return { action: label.action, source: 'MANUAL_REVIEW', score, reason: `current label ${label.label}` };
  }
  if (signals.unforgivenChargeback) return { action: 'PREVENT', source: 'CHARGEBACK', score: 100, reason: 'linked to an unforgiven chargeback' };
  if (signals.ruleAction) return { action: signals.ruleAction, source: 'RULE', score: model.score, reason: 'an active rule decided' };
  if (signals.lookup === 'own') {
    return { action: 'PREVENT', source: 'LOOKUP', score: Math.max(model.score, 90), reason: "a known-fraud indicator of the account's own" };
  }
  if (signals.lookup === 'consortium' && model.action !== 'PREVENT') {
    return { action: 'REVIEW', source: 'LOOKUP', score: Math.max(model.score, 50), reason: 'a known-fraud indicator reported by enough other accounts' };
  }
  if (model.action === 'ALLOW') {
    if (signals.hopsToFraud > 0 && signals.hopsToFraud <= NETWORK_REVIEW_HOPS) {
      return { action: 'REVIEW', source: 'NETWORK', score: Math.max(model.score, 50), reason: `a fraudster ${signals.hopsToFraud} hops away in the graph` };
    }
    const voucher = signals.voucherNetwork;
    if (voucher?.abuse) {
      return {
        action: 'REVIEW',
        source: 'NETWORK',
        score: Math.max(model.score, 50),
        reason: `voucher abuse: ${voucher.uses} successful uses of the code in the customer's network (threshold ${voucher.threshold})`,
      };
    }
  }
  return { action: model.action, source: 'RINGFENCE', score: model.score, reason: `model score ${model.score}` };
}
