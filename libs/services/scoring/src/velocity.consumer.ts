import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { MessageBusContext, MessageBusController } from '@ringfence/bus';
import { type MessageEnvelope, PAYLOAD_ROUTE_LIST, StateGroups } from '@ringfence/contracts';
import type { Logger } from '@ringfence/platform';
import { type InputClass, ROOT_LOGGER, validatedEventHandler } from '@ringfence/service-runtime';
import { VelocityState } from './velocity-state.service';

const PAYLOAD_CLASS_BY_TOPIC = new Map<string, InputClass<object>>(PAYLOAD_ROUTE_LIST.map((route) => [route.ingestTopic, route.payloadClass]));

/**
 * Feeds every checkpoint's ingest event (customer updates, registrations, payouts, refunds,
 * voucher redemptions, PSP transactions) into the velocity counters, in its own consumer group
 * `scoring-velocity`, so the checkpoints can wait for it (`StateGroups.scoringVelocity`). The bus
 * awaits `VelocityState.flush` before it commits the handled offsets (`beforeCommit`).
 */
@MessageBusController()
export class VelocityConsumer {
  /** Each topic's validated handler, made once rather than as closures per event. */
  private readonly handlers: ReadonlyMap<string, (message: MessageEnvelope<unknown>) => Promise<void>>;

  constructor(state: VelocityState, @Inject(ROOT_LOGGER) logger: Logger) {
    this.handlers = new Map([...PAYLOAD_CLASS_BY_TOPIC].map(([topic, payloadClass]) => [topic, validatedEventHandler(topic, payloadClass, logger, (valid) => state.record(topic, valid))]));
  }

  @EventPattern(StateGroups.scoringVelocity.topics, { group: StateGroups.scoringVelocity.group, beforeCommit: VelocityState })
  record(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<void> {
    const handler = this.handlers.get(context.getTopic());
    if (handler === undefined) throw new Error(`velocity reads no ${context.getTopic()}`);
    return handler(message);
  }
}
