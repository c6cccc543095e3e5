import type { INestMicroservice } from '@nestjs/common';
import type { MessageBus, RespondOptions, SubscribeOptions } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { EventTopics, type MessageEnvelope, RpcTopics, StateGroups } from '@ringfence/contracts';
import { MESSAGE_BUS, ROOT_LOGGER } from '@ringfence/service-runtime';
import { CHECKPOINT_DEFINITIONS } from './checkpoint-definitions';
import { CheckpointResponders } from './checkpoint-responders';
import { CheckpointScorer } from './checkpoint-scorer';
import { RULE_BOOK_GROUP } from './rules/rules-groups';
import { MODEL_BOOK_GROUP } from './models/models-groups';

type Handler = (message: MessageEnvelope<unknown>) => Promise<unknown>;

/** Records what the transporter registers; the test calls the handlers as the bus would. */
function recordingBus() {
  const responders = new Map<string, { options: RespondOptions; handler: Handler }>();
  const consumers = new Map<string, { options: SubscribeOptions; handler: Handler }>();
  const published: string[] = [];
  const bus = {
    handle: (topic: string, options: RespondOptions, handler: Handler) => responders.set(topic, { options, handler }),
    subscribe: (topic: string, options: SubscribeOptions, handler: Handler) => consumers.set(topic, { options, handler }),
    publish: async (topic: string) => void published.push(topic),
    start: async () => undefined,
    stop: async () => undefined,
  } as unknown as MessageBus;
  return { bus, responders, consumers, published };
}

const envelope = (payload: unknown): MessageEnvelope<unknown> => ({
  eventId: 'evt-1',
  accountId: 'acc_1',
  environment: 'live',
  subjectId: 'cus-1',
  acceptedAt: 1,
  traceId: 'trace-1',
  payload,
});

const running: INestMicroservice[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((microservice) => microservice.close()));
});

async function setup() {
  const recording = recordingBus();
  const scored: string[] = [];
  const scorer = { score: async (definition: { checkpoint: string }) => void scored.push(definition.checkpoint) };
  const logger = { error: () => undefined };
  running.push(
    await startBusControllers(recording.bus, {
      controllers: [CheckpointResponders],
      providers: [
        { provide: MESSAGE_BUS, useValue: recording.bus },
        { provide: ROOT_LOGGER, useValue: logger },
        { provide: CheckpointScorer, useValue: scorer },
      ],
    }),
  );
  return { ...recording, scored };
}

describe(CheckpointResponders.name, () => {
  it('answers every checkpoint topic in the scoring group, waiting for its own rule book, model book and velocity counters, reading through to the owners it asks', async () => {
    const { responders } = await setup();

    expect([...responders.keys()].sort()).toEqual(CHECKPOINT_DEFINITIONS.map((definition) => definition.rpcTopic).sort());
    for (const { options } of responders.values()) {
      expect(options).toEqual({
        group: 'scoring',
        consistentWith: [{ group: RULE_BOOK_GROUP, topics: [EventTopics.ruleSaved] }, { group: MODEL_BOOK_GROUP, topics: [EventTopics.modelActivated] }, StateGroups.scoringVelocity],
        // The owners it asks wait for their own consumers; the bus reads their topics with scoring's.
        readsThrough: [StateGroups.ingestion, StateGroups.graph],
      });
    }
  });

  it('consumes the transaction updates in the scoring group', async () => {
    const { consumers } = await setup();

    expect([...consumers].map(([topic, { options }]) => [topic, options])).toEqual([[EventTopics.transactionUpdated, { group: 'scoring' }]]);
  });

  it('refuses an invalid checkpoint request before scoring it', async () => {
    const { responders, scored } = await setup();

    await expect(responders.get(RpcTopics.payoutCheckpoint)!.handler(envelope({ timestamp: 'yesterday' }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(scored).toEqual([]);
  });

  it('skips an invalid transaction update instead of retrying it, and publishes nothing', async () => {
    const { consumers, scored, published } = await setup();

    await expect(consumers.get(EventTopics.transactionUpdated)!.handler(envelope({ timestamp: 'yesterday' }))).resolves.toBeUndefined();
    expect(scored).toEqual([]);
    expect(published).toEqual([]);
  });
});
