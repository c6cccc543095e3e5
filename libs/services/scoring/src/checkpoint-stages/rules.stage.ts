import type { CurrentLabelMessage, GraphNetworkFeaturesReply, LabelCategory, MessageEnvelope } from '@ringfence/contracts';
import type { CheckpointLookup } from '@ringfence/lookup';
import type { Logger } from '@ringfence/platform';
import {
  type FeatureVector,
  NO_RULES,
  type RuleBudgets,
  type RuleEnvironments,
  type RuleInputs,
  type RulesOutcome,
  evaluateRules,
  lookupInputs,
  networkInputs,
} from '@ringfence/scoring-engine';
import type { RuleBook } from '../rules/rule-book';
import type { CheckpointRequest } from './checkpoint-request';

/** The rules stage: the tenant's rules of the checkpoint (ADR-0011), from the in-memory rule book. */
export class RulesStage {
  constructor(
    private readonly ruleBook: RuleBook,
    private readonly ruleEnvironments: RuleEnvironments,
    private readonly ruleBudgets: RuleBudgets,
    private readonly logger: Logger,
  ) {}

  /**
   * Every rule of the checkpoint. A rule that fails is reported on the decision event; evaluation
   * itself never fails the checkpoint. The rules read the features by name: their record is
   * built only when the checkpoint has rules.
   */
  evaluate(message: MessageEnvelope<unknown>, { ruleCheckpoint: checkpoint }: CheckpointRequest, inputs: RuleInputsBesideFeatures, features: FeatureVector): RulesOutcome {
    if (checkpoint === null) return NO_RULES;
    const rules = this.ruleBook.rulesOf(message, checkpoint);
    if (rules.length === 0) return NO_RULES;
    const context = this.ruleEnvironments.of(checkpoint).context({ ...inputs, features: features.toRecord() });
    const outcome = evaluateRules(rules, context, this.ruleBudgets);
    if (outcome.failed.length > 0) this.logger.debug({ checkpoint, traceId: message.traceId, failed: outcome.failed }, 'rules failed to evaluate');
    // ADR-0016: a rule that keeps failing is suspended for its account.
    this.ruleBook.recordOutcome(message, rules, outcome);
    return outcome;
  }
}

/** What the rules read besides the features, which the decision event records on their own (its `features`). */
export type RuleInputsBesideFeatures = Omit<RuleInputs, 'features'>;

/** What the rules read besides the features: the request as sent, the network, the labels, the lookup and the model's score. */
export function ruleInputsOf(
  request: CheckpointRequest,
  network: GraphNetworkFeaturesReply | null,
  labels: Partial<Record<LabelCategory, CurrentLabelMessage>>,
  lookup: CheckpointLookup,
  score: number,
): RuleInputsBesideFeatures {
  return {
    payload: request.json,
    network: networkInputs(network),
    labels: currentReviews(labels),
    lookup: lookupInputs({ verdict: lookup.verdict ?? 'none', ...lookup.features }),
    score,
  };
}

/** Category to review, for the rule context's `labels`. */
function currentReviews(labels: Partial<Record<LabelCategory, CurrentLabelMessage>>): Record<string, string> {
  const reviews: Record<string, string> = {};
  for (const [category, label] of Object.entries(labels)) if (label !== undefined) reviews[category] = label.review;
  return reviews;
}
