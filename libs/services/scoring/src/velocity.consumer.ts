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
  constructor(
    private readonly state: VelocityState,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(StateGroups.scoringVelocity.topics, { group: StateGroups.scoringVelocity.group, beforeCommit: VelocityState })
  record(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<void> {
    const topic = context.getTopic();
    const payloadClass = PAYLOAD_CLASS_BY_TOPIC.get(topic);
    if (payloadClass === undefined) throw new Error(`velocity reads no ${topic}`);
    return validatedEventHandler(topic, payloadClass, this.logger, (valid) => this.state.record(topic, valid))(message);
  }
}
