import { Inject, Injectable } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import {
  type Environment,
  type EventTopicMap,
  type GraphNetworkFeaturesReply,
  type MessageEnvelope,
  type RpcTopic,
  type RpcTopicMap,
  RpcTopics,
  type WarningDto,
  toWireJson,
} from '@ringfence/contracts';
import {
  ENTITY_DOCUMENT_REPOSITORY,
  type EntityDocument,
  type EntityDocumentRepository,
  type EntityUpdate,
  hasUnforgivenChargeback,
  mergeDocument,
} from '@ringfence/entities';
import { LABEL_REPOSITORY, type LabelRepository } from '@ringfence/labels';
import { LOOKUP_INDICATOR_REPOSITORY, type LookupIndicatorRepository } from '@ringfence/lookup';
import { type Logger, type RingfenceConfig, newEventId, prefixedId } from '@ringfence/platform';
import { DEFAULT_THRESHOLDS, decide, extractCustomerFeatures, networkSignals, scoreContributions, scoreCustomer } from '@ringfence/scoring-engine';
import { MESSAGE_BUS, RINGFENCE_CONFIG, ROOT_LOGGER, recommendationsGiven } from '@ringfence/service-runtime';
import type { CheckpointDefinition, EntityReference } from './checkpoint-definition';
import { indicatorsOf } from './payload-indicators';

const WARNING_CLASSES: Record<EntityReference['kind'], string> = {
  customer: 'customer-not-found',
  supplier: 'supplier-not-found',
  order: 'order-not-found',
  transaction: 'transaction-not-found',
  paymentMethod: 'paymentmethod-not-found',
};

/** decisions §1: a warning's `help` links into the project's own docs. */
export const WARNINGS_HELP_URL = 'https://github.com/ringfence/ringfence/blob/main/docs/api.md#warnings';

/** The label category whose verdict decides a subject's checkpoints. */
const FRAUD_CATEGORY = { customer: 'PAYMENT_FRAUD', supplier: 'SUPPLIER_FRAUD' } as const;

/**
 * Scores any checkpoint the same way: the subject as stored merged in memory with this request
 * (read your own writes), its identity model plus the checkpoint's own signals, then decisions
 * §1's precedence over labels, chargebacks, known-fraud lookups and the model. Every
 * recommendation is published on the decision feed.
 */
@Injectable()
export class CheckpointScorer {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ENTITY_DOCUMENT_REPOSITORY) private readonly documents: EntityDocumentRepository,
    @Inject(LABEL_REPOSITORY) private readonly labels: LabelRepository,
    @Inject(LOOKUP_INDICATOR_REPOSITORY) private readonly indicators: LookupIndicatorRepository,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async score<R extends RpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<RpcTopicMap[R]['request']>,
  ): Promise<RpcTopicMap[R]['reply']> {
    const { accountId, environment, payload } = message;
    const timestamp = (payload as { timestamp: number }).timestamp;
    const subject = definition.subject(payload);
    // Generic walks over the payload read its wire form (open objects as the client sent them).
    const json = toWireJson(payload);
    const updates = definition.updates(json);
    const [stored, labels, warnings, network] = await Promise.all([
      this.documents.find({ accountId, environment, kind: subject.kind, entityId: subject.id }),
      this.labels.currentLabels(accountId, environment, subject.kind, subject.id),
      this.warnings(accountId, environment, definition.references(payload)),
      subject.kind === 'customer' ? this.networkOf(definition, message, subject.id, timestamp, json) : null,
    ]);
    const fields = this.withRequest(stored, updates, subject, timestamp)?.fields ?? {};
    const known = await this.indicators.knownIndicators(accountId, environment, indicatorsOf(fields, json));
    const features = extractCustomerFeatures(fields, typeof fields.lastDeviceId === 'string', timestamp);
    const signals = [...definition.signals(payload), ...networkSignals(network)];
    const model = definition.scoresIdentity ? scoreCustomer(features, DEFAULT_THRESHOLDS, signals) : scoreContributions(signals);
    const decision = decide({
      label: labels[FRAUD_CATEGORY[subject.kind]]?.review ?? null,
      unforgivenChargeback: subject.kind === 'customer' && hasUnforgivenChargeback(fields),
      ruleAction: null,
      knownFraudIndicators: known.length,
      hopsToFraud: network?.hopsToFraud ?? -1,
      model,
    });
    const recommendation = definition.reply(payload, { decision, scoreId: prefixedId('scr'), warnings });
    await this.bus.publish(definition.decisionTopic, {
      ...message,
      eventId: newEventId(),
      acceptedAt: Date.now(),
      payload: {
        checkpoint: definition.checkpoint,
        timestamp,
        recommendation,
        features: { ...features, modelScore: model.score, modelAction: model.action, knownFraudIndicators: known.length, network },
      } as EventTopicMap[typeof definition.decisionTopic],
    });
    recommendationsGiven.labels(definition.checkpoint, decision.action, decision.source).inc();
    return recommendation;
  }

  /**
   * The customer's network from the graph service, with this request's own links applied first.
   * The graph informs the score but must not sink the checkpoint: when it does not answer in
   * half the checkpoint's budget, the customer is scored without it (null; logged).
   */
  private async networkOf<R extends RpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<unknown>,
    customerId: string,
    nowMs: number,
    json: Record<string, unknown>,
  ): Promise<GraphNetworkFeaturesReply | null> {
    try {
      return await this.bus.request(
        RpcTopics.graphNetworkFeatures,
        { ...message, eventId: newEventId(), payload: { customerId, nowMs, sourceTopic: definition.ingestTopic, sourcePayload: json } },
        { timeoutMs: Math.max(1, Math.floor(this.config.rpcTimeoutMs / 2)) },
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

  private async warnings(accountId: string, environment: Environment, references: EntityReference[]): Promise<WarningDto[]> {
    const found = await Promise.all(
      references.map((reference) => this.documents.find({ accountId, environment, kind: reference.kind, entityId: reference.id })),
    );
    return references
      .filter((_reference, index) => found[index] === null)
      .map((reference) => ({
        class: WARNING_CLASSES[reference.kind],
        help: `${WARNINGS_HELP_URL}-${WARNING_CLASSES[reference.kind]}`,
        msg: `No ${reference.kind} with id ${reference.id} is known to this account.`,
      }));
  }
}
