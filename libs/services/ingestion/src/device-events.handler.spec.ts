import type { INestMicroservice } from '@nestjs/common';
import type { MessageBus, RespondOptions, SubscribeOptions } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { EventTopics, type MessageEnvelope, type ReadDeviceReply, RpcTopics, StateGroups } from '@ringfence/contracts';
import { DEVICE_REPOSITORY, type DeviceKey, type DeviceRecord, type DeviceRepository } from '@ringfence/entities';
import { createLogger } from '@ringfence/platform';
import { ROOT_LOGGER } from '@ringfence/service-runtime';
import { DeviceEventsHandler } from './device-events.handler';
import { DeviceReadModel } from './device-read-model';
import { DeviceReadResponder } from './device-read.responder';

type Handler = (message: MessageEnvelope<unknown>) => Promise<unknown>;

const running: INestMicroservice[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((microservice) => microservice.close()));
});

/** A device store in memory, keyed as the table is (tenant first). */
function memoryDevices(): DeviceRepository {
  const records = new Map<string, DeviceRecord>();
  const keyOf = ({ accountId, environment, deviceId }: DeviceKey) => JSON.stringify([accountId, environment, deviceId]);
  return {
    find: async (key) => records.get(keyOf(key)) ?? null,
    update: async (key, change) => {
      const next = change(records.get(keyOf(key)) ?? null);
      if (next !== null) records.set(keyOf(key), next);
      return records.get(keyOf(key)) ?? null;
    },
  };
}

async function wired() {
  const subscribed = new Map<string, { options: SubscribeOptions; handler: Handler }>();
  const responders = new Map<string, { options: RespondOptions; handler: Handler }>();
  const bus = {
    subscribe: (topic: string, options: SubscribeOptions, handler: Handler) => subscribed.set(topic, { options, handler }),
    handle: (topic: string, options: RespondOptions, handler: Handler) => responders.set(topic, { options, handler }),
    start: async () => undefined,
    stop: async () => undefined,
  } as unknown as MessageBus;
  running.push(
    await startBusControllers(bus, {
      controllers: [DeviceEventsHandler, DeviceReadResponder],
      providers: [{ provide: DEVICE_REPOSITORY, useValue: memoryDevices() }, { provide: ROOT_LOGGER, useValue: createLogger({ level: 'silent', service: 'test' }) }, DeviceReadModel],
    }),
  );
  return { subscribed, responders };
}

let sequence = 0;
const envelope = (payload: unknown, accountId = 'acc_1'): MessageEnvelope<unknown> => ({
  eventId: `evt-${(sequence += 1)}`,
  accountId,
  environment: 'test',
  subjectId: 'dev-1',
  acceptedAt: 1_000 + sequence,
  traceId: 't',
  payload,
});
const batch = { timestamp: 1_763_800_000_000, deviceId: 'dev-1', sessionId: 'ses-1', events: [{ type: 'paste', time: 1_763_800_000_000 }], ipAddress: '203.0.113.7' };

describe(DeviceEventsHandler.name, () => {
  it('consumes the client events and every ingest topic in the devices group; reads wait for that group', async () => {
    const { subscribed, responders } = await wired();

    expect([...subscribed.keys()].sort()).toEqual([...StateGroups.devices.topics].sort());
    expect([...subscribed.values()].every(({ options }) => options.group === 'devices')).toBe(true);
    expect(responders.get(RpcTopics.readDevice)!.options).toEqual({ group: 'ingestion', consistentWith: [StateGroups.devices] });
  });

  it('keeps a batch and a checkpoint that names the device, once each, for its tenant only', async () => {
    const { subscribed, responders } = await wired();
    const clientEvents = envelope(batch);
    await subscribed.get(EventTopics.clientEventsReceived)!.handler(clientEvents);
    await subscribed.get(EventTopics.clientEventsReceived)!.handler(clientEvents);
    await subscribed.get(EventTopics.customerUpdated)!.handler(envelope({ timestamp: 1_763_800_000_000, customer: { customerId: 'cus-1' }, device: { deviceId: 'dev-1' } }));
    const read = (accountId: string) => responders.get(RpcTopics.readDevice)!.handler(envelope({ deviceId: 'dev-1' }, accountId)) as Promise<ReadDeviceReply>;

    const mine = await read('acc_1');
    expect(mine.device).toMatchObject({ eventCounts: { paste: 1 }, ipAddresses: [{ ipAddress: '203.0.113.7' }], customers: [{ customerId: 'cus-1' }] });
    expect(mine.summary).toMatchObject({ eventCount: 1, sessionCount: 1, distinctCustomers: 1 });
    expect(await read('acc_2')).toEqual({ device: null, summary: null });
  });

  it('skips an invalid batch (logged), keeping nothing', async () => {
    const { subscribed, responders } = await wired();
    await subscribed.get(EventTopics.clientEventsReceived)!.handler(envelope({ ...batch, events: 'none' }));

    expect(await responders.get(RpcTopics.readDevice)!.handler(envelope({ deviceId: 'dev-1' }))).toEqual({ device: null, summary: null });
  });
});
