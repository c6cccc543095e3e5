import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { MessageBusContext, MessageBusController } from '@ringfence/bus';
import { ClientEventsReceivedEvent, EventTopics, type MessageEnvelope, StateGroups, toWireJson } from '@ringfence/contracts';
import { DEVICE_REPOSITORY, type DeviceRepository, applyClientEvents, applyDeviceSighting, deviceSightingOf } from '@ringfence/entities';
import type { Logger } from '@ringfence/platform';
import { ROOT_LOGGER, validatedEventHandler } from '@ringfence/service-runtime';
import { INGEST_ROUTES, type IngestRoute } from './ingest-routes';

type Handler = (message: MessageEnvelope<unknown>) => Promise<void>;

/**
 * Keeps the device read models (consumer group `devices`): each batch of a client SDK's session
 * events (`ringfence.ingest.device.client-events.v1`) is counted on its device and session, and
 * every ingest payload that names a device (`deviceId` or `device.deviceId`) adds its customer
 * and cards to that device. Redelivery changes nothing (a record remembers the events it
 * applied). A write-behind store (the embedded mode's) writes what the handled events changed
 * before their offsets are committed (`beforeCommit`); otherwise each change is a compare-and-set
 * on the device's row.
 */
@MessageBusController()
export class DeviceEventsHandler {
  private readonly handlers: ReadonlyMap<string, Handler>;

  constructor(
    @Inject(DEVICE_REPOSITORY) private readonly devices: DeviceRepository,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    const clientEvents = validatedEventHandler(EventTopics.clientEventsReceived, ClientEventsReceivedEvent, logger, (valid) => this.applyClientEvents(valid));
    this.handlers = new Map<string, Handler>([
      [EventTopics.clientEventsReceived, clientEvents],
      ...INGEST_ROUTES.map((route): [string, Handler] => [route.topic, validatedEventHandler(route.topic, route.payloadClass, logger, (valid) => this.applySighting(route, valid))]),
    ]);
  }

  @EventPattern([...StateGroups.devices.topics], { group: StateGroups.devices.group, beforeCommit: DEVICE_REPOSITORY })
  handle(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<void> {
    const handler = this.handlers.get(context.getTopic());
    if (handler === undefined) throw new Error(`the device read models keep nothing of ${context.getTopic()}`);
    return handler(message);
  }

  async applyClientEvents({ eventId, accountId, environment, acceptedAt, payload }: MessageEnvelope<ClientEventsReceivedEvent>): Promise<void> {
    const applied = { eventId, acceptedAt };
    await this.devices.update({ accountId, environment, deviceId: payload.deviceId }, (current) => applyClientEvents(current, payload, applied));
  }

  async applySighting(_route: IngestRoute, { eventId, accountId, environment, acceptedAt, payload }: MessageEnvelope<object>): Promise<void> {
    const sighting = deviceSightingOf(toWireJson(payload));
    if (sighting === null) return;
    const applied = { eventId, acceptedAt };
    await this.devices.update({ accountId, environment, deviceId: sighting.deviceId }, (current) => applyDeviceSighting(current, sighting, applied));
  }
}
