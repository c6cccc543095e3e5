import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_REPOSITORY, type AccountRepository, type AccountSettings, voucherCheckPolicy, voucherCheckRecommendation } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import {
  type GraphNetworkFeaturesReply,
  type MessageEnvelope,
  type CheckpointRecommendation,
  type CheckpointRpcTopic,
  type CheckpointScoredEvent,
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
  DEFAULT_THRESHOLDS,
  type VoucherNetworkSignal,
  decide,
  extractCustomerFeatures,
  networkSignals,
  scoreContributions,
  scoreCustomer,
} from '@ringfence/scoring-engine';
import { MESSAGE_BUS, RINGFENCE_CONFIG, ROOT_LOGGER, recommendationsGiven } from '@ringfence/service-runtime';
import type { CheckpointDefinition, CheckpointSubject, EntityReference } from './checkpoint-definition';
import { CheckpointFacts } from './checkpoint-facts';
import { indicatorsOf } from './payload-indicators';

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

/**
 * Scores any checkpoint the same way: the subject as stored merged in memory with this request
 * (read your own writes), its identity model plus the checkpoint's own signals and its network
 * (customers and suppliers alike), then the sources' precedence (docs/api.md, "How a
 * checkpoint decides") over labels, chargebacks, known-fraud lookups, the network (a
 * redemption's voucher network included) and the model.
 * It answers with the decision event (the recommendation, the features it was made from and
 * the reason of its source), which the gateway publishes on the decision feed.
 */
@Injectable()
export class CheckpointScorer {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly facts: CheckpointFacts,
    @Inject(ACCOUNT_REPOSITORY) private readonly accounts: AccountRepository,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Scores a checkpoint request and answers with the decision; the gateway publishes it and
   * answers with its recommendation, so a decision that comes too late is simply dropped.
   */
  async score<R extends CheckpointRpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<RpcTopicMap[R]['request']>,
  ): Promise<RpcTopicMap[R]['reply']> {
    const { accountId, payload } = message;
    const timestamp = (payload as { timestamp: number }).timestamp;
    const subject = definition.subject(payload);
    // Generic walks over the payload read its wire form (open objects as the client sent them).
    const json = toWireJson(payload);
    const updates = definition.updates(json);
    const references = definition.references(payload);
    const settingsRead = this.settingsOf(accountId);
    const [entities, labels, settings, graph] = await Promise.all([
      this.facts.entities(message, subject, references),
      this.facts.currentLabels(message, subject),
      settingsRead,
      this.graphOf(definition, message, subject, timestamp, settingsRead),
    ]);
    const { network, voucherNetwork } = graph;
    const warnings = notFoundWarnings(references, entities.references);
    const fields = this.withRequest(entities.subject, updates, subject, timestamp)?.fields ?? {};
    const lookupPolicy = checkpointLookupPolicy(settings);
    const evidence = await this.facts.lookupEvidence(message, indicatorsOf(fields, json), lookupPolicy.limitIndustry);
    const lookup = checkpointLookup(evidence, lookupPolicy, timestamp);
    const features = extractCustomerFeatures(fields, typeof fields.lastDeviceId === 'string', timestamp);
    const signals = [...definition.signals(payload), ...networkSignals(subject.kind === 'customer' ? network : null)];
    const model = definition.scoresIdentity ? scoreCustomer(features, DEFAULT_THRESHOLDS, signals) : scoreContributions(signals);
    const labelCategories = [FRAUD_CATEGORY[subject.kind], ...(subject.kind === 'customer' ? (definition.customerLabelCategories ?? []) : [])];
    const decision = decide({
      labels: labelCategories.map((category) => labels[category]?.review).filter((review): review is NonNullable<typeof review> => review !== undefined),
      unforgivenChargeback: subject.kind === 'customer' && hasUnforgivenChargeback(fields),
      ruleAction: null,
      lookup: lookup.verdict,
      hopsToFraud: network?.hopsToFraud ?? -1,
      voucherNetwork,
      model,
    });
    const recommendation = definition.reply(payload, { decision, scoreId: prefixedId('scr'), warnings });
    recommendationsGiven.labels(definition.checkpoint, decision.action, decision.source).inc();
    const scored: CheckpointScoredEvent<CheckpointRecommendation<R>> = {
      checkpoint: definition.checkpoint,
      timestamp,
      recommendation,
      features: {
        ...features,
        modelScore: model.score,
        modelAction: model.action,
        ...lookup.features,
        ...(definition.voucherUse
          ? { voucherNetworkUses: voucherNetwork?.uses ?? null, voucherAbuseThreshold: voucherNetwork?.threshold ?? null, voucherAbuse: voucherNetwork?.abuse ?? false }
          : {}),
        ...networkFeatureFields(network),
        decisionReason: decision.reason,
      },
    };
    // TypeScript cannot see that the reply type of a checkpoint topic is its scored event.
    return scored as RpcTopicMap[R]['reply'];
  }

  /** The account's settings (defaults when it is unknown), read with the checkpoint's other reads. */
  private async settingsOf(accountId: string): Promise<AccountSettings> {
    return (await this.accounts.findById(accountId))?.settings ?? {};
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
    subject: CheckpointSubject,
    nowMs: number,
    settingsRead: Promise<AccountSettings>,
  ): Promise<GraphAnswer> {
    const deadline = Date.now() + Math.max(1, Math.floor(this.config.rpcTimeoutMs / 2));
    const network = await this.networkOf(definition, message, subject, nowMs, deadline);
    const voucher = definition.voucherUse?.(message.payload) ?? null;
    if (voucher === null || network === null || subject.kind !== 'customer') return { network, voucherNetwork: null };
    const settings = await settingsRead;
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
   * request's own links applied first. The graph informs the score but must not sink the
   * checkpoint: when it does not answer by `deadline`, the subject is scored without it (null; logged).
   */
  private async networkOf<R extends CheckpointRpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<unknown>,
    subject: CheckpointSubject,
    nowMs: number,
    deadline: number,
  ): Promise<GraphNetworkFeaturesReply | null> {
    try {
      return await this.bus.request(
        RpcTopics.graphNetworkFeatures,
        {
          ...message,
          eventId: newEventId(),
          payload: { customerId: subject.id, subjectKind: subject.kind, nowMs },
        },
        { timeoutMs: Math.max(1, deadline - Date.now()) },
      );
    } catch (error) {
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

/**
 * The graph's answer as flat decision-event features (the feed's features are scalars):
 * `networkAnswered` false when the graph did not answer in time, and then nothing else.
 */
function networkFeatureFields(network: GraphNetworkFeaturesReply | null): Record<string, number | boolean> {
  if (network === null) return { networkAnswered: false };
  return {
    networkAnswered: true,
    networkHopsToFraud: network.hopsToFraud,
    networkSize: network.networkSize,
    networkCustomers: network.networkCustomers,
    networkMaxNodesHit: network.maxNodesHit,
    networkGrowthRate: network.networkGrowthRate,
    networkSharedDeviceCustomers: network.maxOtherCustomers.device,
    networkSharedCardCustomers: network.maxOtherCustomers.card,
    networkSharedEmailCustomers: network.maxOtherCustomers.email,
    networkSharedPhoneCustomers: network.maxOtherCustomers.phone,
  };
}
