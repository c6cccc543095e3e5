import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import { EventTopics, StateGroups, TransactionUpdatedEvent } from '@ringfence/contracts';
import { type Logger, newEventId } from '@ringfence/platform';
import { MESSAGE_BUS, ROOT_LOGGER, validatedEventHandler, validatedRequestHandler } from '@ringfence/service-runtime';
import type { CheckpointDefinition } from './checkpoint-definition';
import { CHECKPOINT_DEFINITIONS, transactionCheckpoint } from './checkpoint-definitions';
import { CheckpointScorer } from './checkpoint-scorer';

/**
 * Answers every checkpoint's request topic (responder group `scoring`), and scores the
 * transaction updates sent to `/psp/transaction/async` with a `checkpoint`: their
 * recommendation goes only to the decision feed (specification §4.3).
 */
@Injectable()
export class CheckpointResponders implements OnModuleInit {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly scorer: CheckpointScorer,
  ) {}

  onModuleInit(): void {
    for (const definition of CHECKPOINT_DEFINITIONS as readonly CheckpointDefinition[]) {
      this.bus.handle(
        definition.rpcTopic,
        // Scoring reads the entity store that ingestion keeps; the graph's state has its own barrier.
        { group: 'scoring', consistentWith: [StateGroups.ingestion] },
        validatedRequestHandler(definition.payloadClass, (message) => this.scorer.score(definition, message)),
      );
    }
    this.bus.subscribe(
      EventTopics.transactionUpdated,
      { group: 'scoring' },
      validatedEventHandler(EventTopics.transactionUpdated, TransactionUpdatedEvent, this.logger, async (message) => {
        if (!message.payload.checkpoint) return;
        // Nobody waits for an /async answer: its decision goes straight to the feed.
        const decision = await this.scorer.score(transactionCheckpoint, message);
        await this.bus.publish(transactionCheckpoint.decisionTopic, { ...message, eventId: newEventId(), acceptedAt: Date.now(), payload: decision });
      }),
    );
  }
}
