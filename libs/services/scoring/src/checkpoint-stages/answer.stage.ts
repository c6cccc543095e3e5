import type { AccountSettings } from '@ringfence/accounts';
import {
  type CheckpointRecommendation,
  type CheckpointRpcTopic,
  type CheckpointScoredEvent,
  type DecisionExplanationDto,
  type RpcTopicMap,
  type TransactionOptimisationDto,
  type TriggeredRuleDto,
  type WarningClass,
  type WarningDto,
  warningHelpUrl,
} from '@ringfence/contracts';
import type { EntityDocument } from '@ringfence/entities';
import { prefixedId } from '@ringfence/platform';
import {
  DEFAULT_OPTIMISATION_POLICY,
  type Decision,
  type FeatureValue,
  type FeatureVector,
  type OptimisationPolicy,
  type RulesOutcome,
  type TriggeredRule,
  optimiseTransaction,
  recordedFeatures,
  unlistedPoints,
} from '@ringfence/scoring-engine';
import type { CheckpointDefinition, EntityReference } from '../checkpoint-definition';
import { explanationSides } from '../models/explanation-sides';
import { type ExplainedScore, modelIdentityOf } from '../models/learned-score';
import type { CheckpointRequest } from './checkpoint-request';
import { type SourceSignals, passiveActionOf } from './decision.stage';
import type { RuleInputsBesideFeatures } from './rules.stage';

const WARNING_CLASSES: Record<EntityReference['kind'], WarningClass> = {
  customer: 'customer-not-found',
  supplier: 'supplier-not-found',
  order: 'order-not-found',
  transaction: 'transaction-not-found',
  paymentMethod: 'paymentmethod-not-found',
};

/** What the model, rules and decision stages made of a checkpoint: what its answer is built from. */
export interface CheckpointJudgement {
  features: FeatureVector;
  modelScored: ExplainedScore;
  signals: SourceSignals;
  ruleInputs: RuleInputsBesideFeatures;
  rules: RulesOutcome;
  decision: Decision;
}

/**
 * The answer stage: the decision event, whose `recommendation` the definition shapes (the `data`
 * of the HTTP answer), with the features it was made from and its explanation. The gateway
 * publishes it on the decision feed and answers with its recommendation.
 */
export function scoredAnswer<R extends CheckpointRpcTopic>(
  definition: CheckpointDefinition<R>,
  request: CheckpointRequest<R>,
  storedReferences: readonly (EntityDocument | null)[],
  { features, modelScored, signals, ruleInputs, rules, decision }: CheckpointJudgement,
): RpcTopicMap[R]['reply'] {
  const { model } = modelScored;
  const { checkpoint } = definition;
  const { ruleCheckpoint } = request;
  const passiveAction = passiveActionOf(signals, rules);
  const scoreId = prefixedId('scr');
  const rulesBlock = { ...(passiveAction === undefined ? {} : { passiveAction }), triggered: rules.triggered.map(triggeredRuleOf(checkpoint)) };
  const transactionOptimisation = ruleCheckpoint === 'pspBeforeAuth' ? transactionOptimisationOf(request, decision, model.score, features, rules.triggered) : null;
  const warnings = notFoundWarnings(request.references, storedReferences);
  const recommendation = definition.reply(request.payload, { decision, scoreId, warnings, rules: rulesBlock, transactionOptimisation });
  const scored: CheckpointScoredEvent<CheckpointRecommendation<R>> = {
    checkpoint,
    timestamp: request.timestamp,
    recommendation,
    features: recordedFeaturesOf(features, modelScored, decision),
    scoreId,
    ...(ruleCheckpoint === null ? {} : { ruleCheckpoint }),
    subject: { kind: request.subject.kind, id: request.subject.id },
    rules: { evaluated: rules.evaluated, triggered: rules.triggered, failed: rules.failed },
    explanation: explanationOf(modelScored, rules.triggered, decision.reason),
    // The rules' features are the event's `features` (a superset): recorded once, not twice.
    context: { payload: ruleInputs.payload, network: ruleInputs.network, labels: ruleInputs.labels, lookup: ruleInputs.lookup, score: ruleInputs.score },
    signals: signals as unknown as Record<string, unknown>,
  };
  // TypeScript cannot see that the reply type of a checkpoint topic is its scored event.
  return scored as RpcTopicMap[R]['reply'];
}

/**
 * The event's `features`: the vector without its zeros (`recordedFeatures`), then the model's
 * score, action and version and the decision's reason, added to that one record (a spread into
 * a new one would copy its hundred-odd properties again).
 */
function recordedFeaturesOf(features: FeatureVector, { model, modelVersion }: ExplainedScore, decision: Decision): Record<string, FeatureValue> {
  const recorded = recordedFeatures(features);
  recorded.modelScore = model.score;
  recorded.modelAction = model.action;
  recorded.modelVersion = modelVersion;
  recorded.decisionReason = decision.reason;
  return recorded;
}

/** A `<kind>-not-found` warning for each referenced entity that was never stored. */
function notFoundWarnings(references: readonly EntityReference[], stored: readonly (EntityDocument | null)[]): WarningDto[] {
  return references
    .filter((_reference, index) => stored[index] === null)
    .map((reference) => ({
      class: WARNING_CLASSES[reference.kind],
      help: warningHelpUrl(WARNING_CLASSES[reference.kind]),
      msg: `No ${reference.kind} with id ${reference.id} is known to this account.`,
    }));
}

/** A PSP transaction's 3-D Secure advice at pspBeforeAuth. */
function transactionOptimisationOf(
  { json, settings }: CheckpointRequest,
  decision: Decision,
  score: number,
  features: FeatureVector,
  triggered: readonly TriggeredRule[],
): TransactionOptimisationDto | null {
  const amountMajor = features.get('amountMajorUnits');
  const currency = features.get('currency');
  return optimiseTransaction({
    transactionId: String((json.transaction as { transactionId?: unknown } | undefined)?.transactionId ?? ''),
    action: decision.action,
    score,
    amountMajor: typeof amountMajor === 'number' ? amountMajor : null,
    currency: typeof currency === 'string' ? currency : null,
    triggered,
    policy: optimisationPolicyOf(settings),
  });
}

/** A triggered rule as answers list it: `ruleName` only at payouts (specification §2.2), kept on the decision event. */
function triggeredRuleOf(checkpoint: string): (rule: TriggeredRule) => TriggeredRuleDto {
  return ({ ruleId, ruleVersion, ruleName, state, action, description }) =>
    checkpoint === 'payout' ? { ruleId, ruleVersion, ruleName, state, action, description } : { ruleId, ruleVersion, state, action, description };
}

/**
 * ADR-0012: the model's largest contributions either way, in points of its score, with the
 * points of the others, the triggered rules, and why the source decided.
 */
function explanationOf(scored: ExplainedScore, triggered: readonly TriggeredRule[], reason: string): DecisionExplanationDto {
  const { model, modelVersion, baseScore } = scored;
  const sides = explanationSides(model.contributions);
  return {
    modelVersion,
    model: modelIdentityOf(scored),
    modelScore: model.score,
    baseScore,
    ...sides,
    // Points, like the contributions: baseScore + raised + lowered + others = modelScore.
    others: unlistedPoints([...sides.raised, ...sides.lowered], baseScore, model.score),
    rules: triggered.map(({ ruleId, ruleVersion, ruleName, state, action }) => ({ ruleId, ruleVersion, name: ruleName, state, action })),
    reason,
  };
}

/** The account's 3-D Secure policy, each part defaulting on its own. */
function optimisationPolicyOf(settings: AccountSettings): OptimisationPolicy {
  const configured = settings.transactionOptimisation ?? {};
  return {
    lowValueLimits: configured.lowValueLimits ?? DEFAULT_OPTIMISATION_POLICY.lowValueLimits,
    traLimits: configured.traLimits ?? DEFAULT_OPTIMISATION_POLICY.traLimits,
    traMaxScore: configured.traMaxScore ?? DEFAULT_OPTIMISATION_POLICY.traMaxScore,
  };
}
