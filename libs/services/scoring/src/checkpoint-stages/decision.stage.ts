import type { Action, CurrentLabelMessage, LabelCategory } from '@ringfence/contracts';
import { hasUnforgivenChargeback } from '@ringfence/entities';
import type { CheckpointLookup } from '@ringfence/lookup';
import { type Decision, type DecisionSignals, type RulesOutcome, decide } from '@ringfence/scoring-engine';
import type { CheckpointDefinition } from '../checkpoint-definition';
import type { CheckpointRequest } from './checkpoint-request';
import type { GraphAnswer } from './graph-facts';

/** The label category whose verdict decides a subject's checkpoints. */
const FRAUD_CATEGORY = { customer: 'PAYMENT_FRAUD', supplier: 'SUPPLIER_FRAUD' } as const;

/** Every source's verdict but the rules': what the precedence (docs/api.md, "How a checkpoint decides") weighs. */
export type SourceSignals = Omit<DecisionSignals, 'ruleAction'>;

/**
 * The decision stage's inputs: labels, chargebacks, known-fraud lookups, the network (a
 * redemption's voucher network included) and the model.
 */
export function sourceSignals(
  definition: CheckpointDefinition,
  { subject }: CheckpointRequest,
  fields: Record<string, unknown>,
  labels: Partial<Record<LabelCategory, CurrentLabelMessage>>,
  lookup: CheckpointLookup,
  { network, voucherNetwork }: GraphAnswer,
  model: { score: number; action: Action },
): SourceSignals {
  const labelCategories = [FRAUD_CATEGORY[subject.kind], ...(subject.kind === 'customer' ? (definition.customerLabelCategories ?? []) : [])];
  return {
    labels: labelCategories.map((category) => labels[category]?.review).filter((review): review is NonNullable<typeof review> => review !== undefined),
    unforgivenChargeback: subject.kind === 'customer' && hasUnforgivenChargeback(fields),
    lookup: lookup.verdict,
    hopsToFraud: network?.hopsToFraud ?? -1,
    voucherNetwork,
    model: { score: model.score, action: model.action },
  };
}

/** The decision stage: the sources' precedence over the signals and the active rules' action. */
export function decideCheckpoint(signals: SourceSignals, rules: RulesOutcome): Decision {
  return decide({ ...signals, ruleAction: rules.activeAction });
}

/**
 * ADR-0011: the action the answer would have had with the passive rules active too, whenever a
 * passive rule triggered, also when it is the action given (an active REVIEW beside a passive
 * ALLOW says REVIEW): an integration tells "no passive rule fired" (undefined) from "fired, same
 * action".
 */
export function passiveActionOf(signals: SourceSignals, rules: RulesOutcome): Action | undefined {
  if (!rules.triggered.some((rule) => rule.state === 'passive')) return undefined;
  return decide({ ...signals, ruleAction: rules.actionWithPassive }).action;
}
