import { Inject, Injectable } from '@nestjs/common';
import { type AccountSettings, voucherCheckPolicy, voucherCheckRecommendation } from '@ringfence/accounts';
import { BusRemoteError, type MessageBus } from '@ringfence/bus';
import {
  type GraphNetworkFeaturesReply,
  type MessageEnvelope,
  type Checkpoint,
  type CheckpointRecommendation,
  type CheckpointRpcTopic,
  type CheckpointScoredEvent,
  type DecisionExplanationDto,
  type CurrentLabelMessage,
  type LabelCategory,
  type RuleCheckpoint,
  type TriggeredRuleDto,
  type RpcTopicMap,
  RpcTopics,
  type WarningClass,
  type WarningDto,
  warningHelpUrl,
  toWireJson,
} from '@ringfence/contracts';
import { type EntityDocument, type EntityUpdate, hasUnforgivenChargeback, mergeDocument } from '@ringfence/entities';
import { checkpointLookup, checkpointLookupPolicy } from '@ringfence/lookup';
import { type Logger, type RingfenceConfig, newEventId, prefixedId } from '@ringfence/platform';
import {
  BASE_SCORE,
  type FeatureValue,
  SCORE_MODEL_VERSION,
  type RuleTenant,
  type Thresholds,
  type DecisionSignals,
  NO_RULES,
  type RuleEnvironments,
  type RuleInputs,
  type RuleBudgets,
  type RulesOutcome,
  type TriggeredRule,
  type VoucherNetworkSignal,
  DEFAULT_OPTIMISATION_POLICY,
  type OptimisationPolicy,
  computeFeatures,
  optimiseTransaction,
  decide,
  evaluateRules,
  loadFeatureReferenceData,
  lookupInputs,
  networkInputs,
  recordedFeatures,
  merchantOfEvent,
  scoreFeatures,
  thresholdsFor,
} from '@ringfence/scoring-engine';
import { MESSAGE_BUS, RINGFENCE_CONFIG, ROOT_LOGGER, recommendationsGiven, requestAccount } from '@ringfence/service-runtime';
import type { CheckpointDefinition, CheckpointSubject, EntityReference } from './checkpoint-definition';
import { CheckpointFacts } from './checkpoint-facts';
import { evidenceOf, indicatorsNotIn, indicatorsOf } from './payload-indicators';
import { RuleBook } from './rules/rule-book';
import { type ExplainedScore, learnedScore, modelIdentityOf, withShippedModel } from './models/learned-score';
import { ModelBook } from './models/model-book';
import { explanationSides } from './models/explanation-sides';
import { VelocityState } from './velocity-state.service';
import { RULE_ENVIRONMENTS } from './rules/rule-environment.provider';
import { ruleBudgetsOf } from './rules/rule-budgets';

const WARNING_CLASSES: Record<EntityReference['kind'], WarningClass> = {
  customer: 'customer-not-found',
  supplier: 'supplier-not-found',
  order: 'order-not-found',
  transaction: 'transaction-not-found',
  paymentMethod: 'paymentmethod-not-found',
};

/** The label category whose verdict decides a subject's checkpoints. */
const FRAUD_CATEGORY = { customer: 'PAYMENT_FRAUD', supplier: 'SUPPLIER_FRAUD' } as const;

/** What the graph said about the subject: its network, and a redemption's voucher network. */
interface GraphAnswer {
  network: GraphNetworkFeaturesReply | null;
  voucherNetwork: VoucherNetworkSignal | null;
}

/** What the graph is asked about at a checkpoint: whose network, at what event time, and which merchant's fraud rate. */
interface NetworkQuestion {
  subject: CheckpointSubject;
  merchantId: string | undefined;
  nowMs: number;
}

/**
 * Scores any checkpoint the same way: the subject as stored merged in memory with this request
 * (read your own writes), the checkpoint's feature vector (docs/features.md) and the model's
 * score over it (docs/scoring.md), then the sources' precedence (docs/api.md, "How a
 * checkpoint decides") over labels, chargebacks, known-fraud lookups, the network (a
 * redemption's voucher network included) and the model.
 * It answers with the decision event (the recommendation, the features it was made from and
 * the reason of its source), which the gateway publishes on the decision feed.
 */
export interface ScoreOptions {
  /**
   * Score even when the checkpoint's own event named a key the account could not add (it holds
   * its share, decisions §16), on the counters it holds: for an `/async` update, whose decision
   * goes to the feed and nobody could be told 429. Otherwise such a checkpoint is refused (429).
   */
  scoreOverShare?: boolean;
}

@Injectable()
export class CheckpointScorer {
  private readonly ruleBudgets: RuleBudgets;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly facts: CheckpointFacts,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly ruleBook: RuleBook,
    private readonly modelBook: ModelBook,
    @Inject(RULE_ENVIRONMENTS) private readonly ruleEnvironments: RuleEnvironments,
    private readonly velocity: VelocityState,
  ) {
    // The features' reference tables (IP countries, disposable domains) load now, not in the first checkpoint.
    loadFeatureReferenceData();
    this.ruleBudgets = ruleBudgetsOf(config);
  }

  /**
   * Scores a checkpoint request and answers with the decision; the gateway publishes it and
   * answers with its recommendation, so a decision that comes too late is simply dropped.
   */
  async score<R extends CheckpointRpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<RpcTopicMap[R]['request']>,
    { scoreOverShare = false }: ScoreOptions = {},
  ): Promise<RpcTopicMap[R]['reply']> {
    // Before anything is asked of the owners: a checkpoint past the account's share is answered 429 (decisions §16).
    if (!scoreOverShare) this.velocity.refuseWhenOverShare(message);
    const { payload } = message;
    const timestamp = (payload as { timestamp: number }).timestamp;
    const subject = definition.subject(payload);
    // Generic walks over the payload read its wire form (open objects as the client sent them).
    const json = toWireJson(payload);
    const updates = definition.updates(json);
    const references = definition.references(payload);
    // The account's settings as the gateway authenticated the request (it owns the accounts).
    const { settings } = requestAccount(message);
    // The lookup is asked at once about the values the request itself names (its subject's
    // e-mail and telephone, the device's IP, the instruments), beside the other facts; the stored
    // subject can only add values, asked about after it is read.
    const requestIndicators = indicatorsOf(this.withRequest(null, updates, subject, timestamp)?.fields ?? {}, json);
    const [entities, labels, graph, requestEvidence] = await Promise.all([
      this.facts.entities(message, subject, references),
      this.facts.currentLabels(message, subject),
      this.graphOf(definition, message, { subject, merchantId: merchantOfEvent(definition.ingestTopic, json), nowMs: timestamp }, settings),
      this.facts.lookupEvidence(message, requestIndicators, checkpointLookupPolicy(settings).limitIndustry),
    ]);
    const { network, voucherNetwork } = graph;
    const warnings = notFoundWarnings(references, entities.references);
    const subjectDocument = this.withRequest(entities.subject, updates, subject, timestamp);
    const fields = subjectDocument?.fields ?? {};
    const lookupPolicy = checkpointLookupPolicy(settings);
    const indicators = indicatorsOf(fields, json);
    const storedOnly = indicatorsNotIn(indicators, requestIndicators);
    // A request value the stored subject overrides (a newer e-mail stored) is not the subject's.
    const evidence = [...evidenceOf(requestEvidence, indicators), ...(await this.facts.lookupEvidence(message, storedOnly, lookupPolicy.limitIndustry))];
    const lookup = checkpointLookup(evidence, lookupPolicy, timestamp);
    const features = computeFeatures({
      checkpoint: definition.checkpoint,
      payload: json,
      subjectKind: subject.kind,
      subject: fields,
      subjectFieldTimestamps: subjectDocument?.fieldTimestamps ?? {},
      eventTimeMs: timestamp,
      network,
      lookup: lookup.features,
      voucherNetwork,
      // From memory: the barrier waited for the velocity consumer, which kept this event's counters from before it.
      velocity: this.velocity.featuresFor(definition.ingestTopic, message),
      timeZone: settings.timeZone,
    });
    const ruleCheckpoint = ruleCheckpointOf(definition.checkpoint, json);
    const modelScored = this.modelScore(message, ruleCheckpoint, definition.checkpoint, features, thresholdsFor(definition.checkpoint, settings.scoreThresholds));
    const { model } = modelScored;
    const labelCategories = [FRAUD_CATEGORY[subject.kind], ...(subject.kind === 'customer' ? (definition.customerLabelCategories ?? []) : [])];
    const signals: Omit<DecisionSignals, 'ruleAction'> = {
      labels: labelCategories.map((category) => labels[category]?.review).filter((review): review is NonNullable<typeof review> => review !== undefined),
      unforgivenChargeback: subject.kind === 'customer' && hasUnforgivenChargeback(fields),
      lookup: lookup.verdict,
      hopsToFraud: network?.hopsToFraud ?? -1,
      voucherNetwork,
      model: { score: model.score, action: model.action },
    };
    const ruleInputs: RuleInputs = {
      payload: json,
      features,
      network: networkInputs(network),
      labels: currentReviews(labels),
      lookup: lookupInputs({ verdict: lookup.verdict ?? 'none', ...lookup.features }),
      score: model.score,
    };
    const rules = this.evaluateRules(message, ruleCheckpoint, ruleInputs);
    const decision = decide({ ...signals, ruleAction: rules.activeAction });
    // decisions §11: what the answer would have been with the passive rules active too.
    const passiveAction = rules.actionWithPassive === rules.activeAction ? undefined : decide({ ...signals, ruleAction: rules.actionWithPassive }).action;
    const scoreId = prefixedId('scr');
    const rulesBlock = { ...(passiveAction === undefined ? {} : { passiveAction }), triggered: rules.triggered.map(triggeredRuleOf(definition.checkpoint)) };
    const transactionOptimisation =
      ruleCheckpoint === 'pspBeforeAuth'
        ? optimiseTransaction({
            transactionId: String((json.transaction as { transactionId?: unknown } | undefined)?.transactionId ?? ''),
            action: decision.action,
            score: model.score,
            amountMajor: typeof features.amountMajorUnits === 'number' ? features.amountMajorUnits : null,
            currency: typeof features.currency === 'string' ? features.currency : null,
            triggered: rules.triggered,
            policy: optimisationPolicyOf(settings),
          })
        : null;
    const recommendation = definition.reply(payload, { decision, scoreId, warnings, rules: rulesBlock, transactionOptimisation });
    recommendationsGiven.labels(definition.checkpoint, decision.action, decision.source).inc();
    const scored: CheckpointScoredEvent<CheckpointRecommendation<R>> = {
      checkpoint: definition.checkpoint,
      timestamp,
      recommendation,
      features: {
        ...recordedFeatures(features),
        modelScore: model.score,
        modelAction: model.action,
        modelVersion: modelScored.modelVersion,
        decisionReason: decision.reason,
      },
      scoreId,
      ...(ruleCheckpoint === null ? {} : { ruleCheckpoint }),
      subject: { kind: subject.kind, id: subject.id },
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
   * The score of the learned model the tenant activated for its checkpoint (the model book, in
   * memory); without one, the built-in model's of docs/scoring.md, or the shipped default
   * model's where it is higher (`withShippedModel`).
   */
  private modelScore(tenant: RuleTenant, checkpoint: RuleCheckpoint | null, catalogueCheckpoint: Checkpoint, features: Readonly<Record<string, FeatureValue>>, thresholds: Thresholds): ExplainedScore {
    const learned = checkpoint === null ? undefined : this.modelBook.modelOf(tenant, checkpoint);
    if (learned !== undefined) return learnedScore(learned, features, thresholds);
    const builtIn: ExplainedScore = { modelVersion: SCORE_MODEL_VERSION, baseScore: BASE_SCORE, model: scoreFeatures(features, catalogueCheckpoint, thresholds) };
    return withShippedModel(builtIn, checkpoint === null ? undefined : this.modelBook.shippedModelOf(checkpoint), features, thresholds);
  }

  /**
   * Every rule of the tenant's checkpoint, from the in-memory rule book. A rule that fails is
   * reported on the decision event; evaluation itself never fails the checkpoint.
   */
  private evaluateRules(message: MessageEnvelope<unknown>, checkpoint: RuleCheckpoint | null, inputs: RuleInputs): RulesOutcome {
    if (checkpoint === null) return NO_RULES;
    const rules = this.ruleBook.rulesOf(message, checkpoint);
    if (rules.length === 0) return NO_RULES;
    const outcome = evaluateRules(rules, this.ruleEnvironments.of(checkpoint).context(inputs), this.ruleBudgets);
    if (outcome.failed.length > 0) this.logger.debug({ checkpoint, traceId: message.traceId, failed: outcome.failed }, 'rules failed to evaluate');
    // decisions §16: a rule that keeps failing is suspended for its account.
    this.ruleBook.recordOutcome(message, rules, outcome);
    return outcome;
  }

  /**
   * What the graph says within half the checkpoint's budget: the subject's network, with this
   * request's links applied first; then, for a voucher redemption, the voucher check's count of
   * the code's successful uses in the redeemer's network, this redemption included (asked after
   * the network, so that the request's own links and redemption are in the graph). Neither may
   * sink the checkpoint: what does not answer in time is left out (null; logged).
   */
  private async graphOf<R extends CheckpointRpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<RpcTopicMap[R]['request']>,
    about: NetworkQuestion,
    settings: AccountSettings,
  ): Promise<GraphAnswer> {
    const { subject } = about;
    const deadline = Date.now() + Math.max(1, Math.floor(this.config.rpcTimeoutMs / 2));
    const network = await this.networkOf(definition, message, about, deadline);
    const voucher = definition.voucherUse?.(message.payload) ?? null;
    if (voucher === null || network === null || subject.kind !== 'customer') return { network, voucherNetwork: null };
    if (settings.voucherAbuseEnabled === false) return { network, voucherNetwork: null };
    const policy = voucherCheckPolicy(settings, { voucherType: voucher.voucherType });
    try {
      const { uses } = await this.bus.request(
        RpcTopics.graphVoucherUses,
        { ...message, eventId: newEventId(), payload: { customerId: subject.id, voucherCode: voucher.voucherCode, depth: policy.depth } },
        { timeoutMs: Math.max(1, deadline - Date.now()) },
      );
      return { network, voucherNetwork: { uses, threshold: policy.threshold, abuse: voucherCheckRecommendation(uses, policy) === 'ABUSE' } };
    } catch (error) {
      this.logger.warn({ checkpoint: definition.checkpoint, traceId: message.traceId, err: error }, 'scored without the voucher network: the graph did not answer');
      return { network, voucherNetwork: null };
    }
  }

  /**
   * The subject's network (a customer's or a supplier's) from the graph service, with this
   * request's own links applied first, and its merchant's fraud rate. The graph informs the score but must not sink the
   * checkpoint: when it does not answer by `deadline`, the subject is scored without it (null; logged).
   */
  private async networkOf<R extends CheckpointRpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<unknown>,
    { subject, merchantId, nowMs }: NetworkQuestion,
    deadline: number,
  ): Promise<GraphNetworkFeaturesReply | null> {
    try {
      return await this.bus.request(
        RpcTopics.graphNetworkFeatures,
        {
          ...message,
          eventId: newEventId(),
          payload: { customerId: subject.id, subjectKind: subject.kind, nowMs, ...(merchantId === undefined ? {} : { merchantId }) },
        },
        { timeoutMs: Math.max(1, deadline - Date.now()) },
      );
    } catch (error) {
      // The account holds its share of the graph (decisions §16): the checkpoint is refused, not scored without its network.
      if (error instanceof BusRemoteError && error.status === 429) throw error;
      this.logger.warn({ checkpoint: definition.checkpoint, traceId: message.traceId, err: error }, 'scored without network features: the graph did not answer');
      return null;
    }
  }

  /** The subject as stored, with this request's fields merged the way ingestion will merge them. */
  private withRequest(stored: EntityDocument | null, updates: EntityUpdate[], subject: { kind: string; id: string }, timestamp: number) {
    const own = updates.find((update) => update.kind === subject.kind && update.entityId === subject.id);
    return own ? (mergeDocument(stored, own.fields, timestamp) ?? stored) : stored;
  }
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

/** The checkpoint as rules name it: a PSP transaction's by the checkpoint it was sent to; null without one. */
function ruleCheckpointOf(checkpoint: string, json: Record<string, unknown>): RuleCheckpoint | null {
  if (checkpoint !== 'transaction') return checkpoint as RuleCheckpoint;
  return json.checkpoint === 'pspBeforeAuth' || json.checkpoint === 'pspAfterAuth' ? json.checkpoint : null;
}

/** Category to review, for the rule context's `labels`. */
function currentReviews(labels: Partial<Record<LabelCategory, CurrentLabelMessage>>): Record<string, string> {
  const reviews: Record<string, string> = {};
  for (const [category, label] of Object.entries(labels)) if (label !== undefined) reviews[category] = label.review;
  return reviews;
}

/** A triggered rule as answers list it: `ruleName` only at payouts (specification §2.2), kept on the decision event. */
function triggeredRuleOf(checkpoint: string): (rule: TriggeredRule) => TriggeredRuleDto {
  return ({ ruleId, ruleVersion, ruleName, state, action, description }) =>
    checkpoint === 'payout' ? { ruleId, ruleVersion, ruleName, state, action, description } : { ruleId, ruleVersion, state, action, description };
}

/**
 * decisions §12: the model's largest contributions either way, the triggered rules, and why the
 * source decided.
 */
function explanationOf(scored: ExplainedScore, triggered: readonly TriggeredRule[], reason: string): DecisionExplanationDto {
  const { model, modelVersion, baseScore } = scored;
  return {
    modelVersion,
    model: modelIdentityOf(scored),
    modelScore: model.score,
    baseScore,
    ...explanationSides(model.contributions),
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
