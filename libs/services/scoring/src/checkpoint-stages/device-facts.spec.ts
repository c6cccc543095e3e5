import { BusTimeoutError, type MessageBus } from '@ringfence/bus';
import { type DeviceSummaryMessage, type MessageEnvelope, RpcTopics, payloadFacts } from '@ringfence/contracts';
import type { EntityDocument } from '@ringfence/entities';
import { createLogger, loadConfig } from '@ringfence/platform';
import type { CheckpointRequest } from './checkpoint-request';
import { DeviceFacts } from './device-facts';

const message = { eventId: 'evt-1', traceId: 'trace-1', accountId: 'acc_1', environment: 'test', subjectId: 'cus-1', acceptedAt: 1, payload: {} } as MessageEnvelope<unknown>;
const summary = { deviceId: 'dev-1', sessionCount: 1, webdriver: true } as DeviceSummaryMessage;

function requestOf(payload: Record<string, unknown>, kind: 'customer' | 'supplier' = 'customer'): CheckpointRequest {
  return { subject: { kind, id: 'cus-1' }, facts: payloadFacts(payload) } as unknown as CheckpointRequest;
}

const stored = (fields: Record<string, unknown> | null) => Promise.resolve({ subject: fields === null ? null : ({ fields } as unknown as EntityDocument) });

function deviceFacts(answer: (deviceId: string, timeoutMs: number) => Promise<unknown>) {
  const asked: Array<{ topic: string; deviceId: string; timeoutMs: number; accountId: string }> = [];
  const bus = {
    request: jest.fn(async (topic: string, envelope: MessageEnvelope<{ deviceId: string }>, { timeoutMs }: { timeoutMs: number }) => {
      asked.push({ topic, deviceId: envelope.payload.deviceId, timeoutMs, accountId: envelope.accountId });
      return answer(envelope.payload.deviceId, timeoutMs);
    }),
  } as unknown as MessageBus;
  const logger = createLogger({ level: 'silent', service: 'scoring' });
  const warned = jest.spyOn(logger, 'warn');
  return { facts: new DeviceFacts(bus, loadConfig({}, { port: 8080 }), logger), asked, warned };
}

describe(DeviceFacts.name, () => {
  it("asks ingestion's read-device for the request's device, within half the checkpoint's budget, for the envelope's data set", async () => {
    const { facts, asked } = deviceFacts(async () => ({ device: {}, summary }));
    const config = loadConfig({}, { port: 8080 });

    const answer = await facts.of('transaction', message, requestOf({ device: { deviceId: 'dev-1' } }), stored({ lastDeviceId: 'dev-old' }));

    expect(answer).toEqual({ deviceId: 'dev-1', source: 'request', summary });
    expect(asked).toEqual([{ topic: RpcTopics.readDevice, deviceId: 'dev-1', timeoutMs: expect.any(Number), accountId: 'acc_1' }]);
    expect(asked[0].timeoutMs).toBeLessThanOrEqual(Math.floor(config.rpcTimeoutMs / 2));
  });

  it("falls back on the customer's last device on record, and asks nothing without one", async () => {
    const { facts, asked } = deviceFacts(async () => ({ device: null, summary: null }));

    expect(await facts.of('customer', message, requestOf({}), stored({ lastDeviceId: 'dev-old' }))).toEqual({ deviceId: 'dev-old', source: 'subject', summary: null });
    expect(await facts.of('customer', message, requestOf({}), stored(null))).toBeNull();
    expect(await facts.of('customer', message, requestOf({}), Promise.reject(new Error('entities down')))).toBeNull();
    expect(await facts.of('payout', message, requestOf({ device: { deviceId: 'dev-1' } }, 'supplier'), stored(null))).toBeNull();
    expect(asked.map(({ deviceId }) => deviceId)).toEqual(['dev-old']);
  });

  it('answers null (the sdk features null), never a failed checkpoint, when ingestion does not answer in time; warns once an outage', async () => {
    const { facts, warned } = deviceFacts(async (_deviceId, timeoutMs) => {
      throw new BusTimeoutError(RpcTopics.readDevice, timeoutMs);
    });
    const request = requestOf({ device: { deviceId: 'dev-1' } });

    await expect(facts.of('transaction', message, request, stored(null))).resolves.toBeNull();
    await expect(facts.of('customer', message, request, stored(null))).resolves.toBeNull();
    expect(warned).toHaveBeenCalledTimes(1);
  });
});
