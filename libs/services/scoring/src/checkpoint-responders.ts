import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { type EventPatternExtras, type MessageBus, MessageBusContext, MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import { EventTopics, type MessageEnvelope, RpcTopics, StateGroups, TransactionUpdatedEvent } from '@ringfence/contracts';
import { type Logger, type RingfenceConfig, newEventId } from '@ringfence/platform';
import { MESSAGE_BUS, PublishBehind, RINGFENCE_CONFIG, ROOT_LOGGER, validatedEventHandler, validatedRequestHandler } from '@ringfence/service-runtime';
import type { CheckpointDefinition } from './checkpoint-definition';
import { CHECKPOINT_DEFINITIONS, transactionCheckpoint } from './checkpoint-definitions';
import { CheckpointScorer } from './checkpoint-scorer';
import { RULE_BOOK_DEPENDENCY } from './rules/rules-groups';
import { MODEL_BOOK_DEPENDENCY } from './models/models-groups';

const DEFINITIONS = CHECKPOINT_DEFINITIONS as readonly CheckpointDefinition[];
const DEFINITION_BY_TOPIC = new Map<string, CheckpointDefinition>(DEFINITIONS.map((definition) => [definition.rpcTopic, definition]));

/**
 * What scoring reads that others own, it asks of the owners (`CheckpointFacts`, the graph), and
 * each owner's answer waits for its own consumers. Scoring keeps two states from topics: its
 * rule book (a checkpoint waits until every rule saved before it is in it; in one process the
 * save has already applied it, so this costs nothing) and its velocity counters (a checkpoint
 * waits until the `scoring-velocity` consumer has handled the account's earlier events, its own
 * event included: `VelocityState` computed that event's features just before recording it).
 * The owners it asks (ingestion's documents, the graph) wait for their own consumers; in the
 * distributed mode the bus reads where their topics end with scoring's own and passes that on
 * (`readsThrough`), so each of them waits without asking the broker again.
 */
const CHECKPOINT_REQUESTS: MessagePatternExtras = {
  group: 'scoring',
  consistentWith: [RULE_BOOK_DEPENDENCY, MODEL_BOOK_DEPENDENCY, StateGroups.scoringVelocity],
  readsThrough: [StateGroups.ingestion, StateGroups.graph],
};
const SCORING: EventPatternExtras = { group: 'scoring' };

/**
 * Answers every checkpoint's request topic (responder group `scoring`), and scores the
 * transaction updates sent to `/psp/transaction/async` with a `checkpoint`: their
 * recommendation goes only to the decision feed (specification §4.3).
 */
@MessageBusController()
export class CheckpointResponders {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    private readonly scorer: CheckpointScorer,
    private readonly publishBehind: PublishBehind,
  ) {}

  @MessagePattern(
    DEFINITIONS.map((definition) => definition.rpcTopic),
    CHECKPOINT_REQUESTS,
  )
  scoreCheckpoint(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<unknown> {
    const definition = DEFINITION_BY_TOPIC.get(context.getTopic());
    if (definition === undefined) throw new Error(`no checkpoint answers ${context.getTopic()}`);
    return validatedRequestHandler(definition.payloadClass, (valid) => this.scorer.score(definition, valid))(message);
  }

  @EventPattern(EventTopics.transactionUpdated, SCORING)
  scoreAsyncTransaction(@Payload() message: MessageEnvelope<unknown>): Promise<void> {
    return validatedEventHandler(EventTopics.transactionUpdated, TransactionUpdatedEvent, this.logger, async (valid) => {
      if (!valid.payload.checkpoint) return;
      // An event carries no account facts: they are asked of the gateway, which owns them. A
      // failure here is thrown, so the bus delivers the event again.
      const { account } = await this.bus.request(RpcTopics.readAccountFacts, { ...valid, eventId: newEventId(), payload: {} }, { timeoutMs: this.config.requestTimeoutMs });
      if (account === null) {
        this.logger.warn({ accountId: valid.accountId, eventId: valid.eventId }, 'an /async transaction of an unknown account was not scored');
        return;
      }
      // Nobody waits for an /async answer: its decision goes straight to the feed. A decision
      // the broker keeps refusing (too large, say) is set aside after its deliveries instead of
      // holding the partition forever; an outage still delivers the event again (ADR-0016).
      const decision = await this.scorer.score(transactionCheckpoint, { ...valid, account }, { scoreOverShare: true });
      const decided = { ...valid, eventId: newEventId(), acceptedAt: Date.now(), payload: decision };
      await this.publishBehind.publishOrThrow(transactionCheckpoint.decisionTopic, decided, valid.eventId);
    })(message);
  }
}
