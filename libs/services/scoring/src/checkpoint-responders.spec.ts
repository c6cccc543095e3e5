import type { INestMicroservice } from '@nestjs/common';
import { BusMessageRefusedError, BusUnavailableError, type MessageBus, type RespondOptions, type SubscribeOptions } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { type AccountFacts, EventTopics, type MessageEnvelope, RpcTopics, StateGroups } from '@ringfence/contracts';
import { DEFAULT_ROW_ATTEMPTS, InMemorySetAsideStore, SetAsideRows, createLogger, loadConfig } from '@ringfence/platform';
import { MESSAGE_BUS, PUBLISH_BEHIND_WRITER, PublishBehind, RINGFENCE_CONFIG, ROOT_LOGGER } from '@ringfence/service-runtime';
import { CHECKPOINT_DEFINITIONS } from './checkpoint-definitions';
import { CheckpointResponders } from './checkpoint-responders';
import { CheckpointScorer } from './checkpoint-scorer';
import { RULE_BOOK_GROUP } from './rules/rules-groups';
import { MODEL_BOOK_GROUP } from './models/models-groups';

type Handler = (message: MessageEnvelope<unknown>) => Promise<unknown>;

/** Records what the transporter registers; the test calls the handlers as the bus would. */
function recordingBus(accounts: Record<string, AccountFacts>) {
  const responders = new Map<string, { options: RespondOptions; handler: Handler }>();
  const consumers = new Map<string, { options: SubscribeOptions; handler: Handler }>();
  const published: string[] = [];
  /** What the broker answers a publish with, when not accepting it. */
  const broker: { failure: (() => Error) | undefined } = { failure: undefined };
  const bus = {
    handle: (topic: string, options: RespondOptions, handler: Handler) => responders.set(topic, { options, handler }),
    subscribe: (topic: string, options: SubscribeOptions, handler: Handler) => consumers.set(topic, { options, handler }),
    publish: async (topic: string) => {
      if (broker.failure !== undefined) throw broker.failure();
      published.push(topic);
    },
    // The gateway's answer about an account.
    request: async (topic: string, message: MessageEnvelope<unknown>) => {
      if (topic !== RpcTopics.readAccountFacts) throw new Error(`unexpected request on ${topic}`);
      return { account: accounts[message.accountId] ?? null };
    },
    start: async () => undefined,
    stop: async () => undefined,
  } as unknown as MessageBus;
  return { bus, responders, consumers, published, broker };
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

const FACTS: AccountFacts = { industry: 'travel', settings: { defaultAction: 'REVIEW' } };

async function setup() {
  const recording = recordingBus({ acc_1: FACTS });
  const scored: string[] = [];
  const scoredWith: Array<AccountFacts | undefined> = [];
  const scorer = {
    score: async (definition: { checkpoint: string }, message: MessageEnvelope<unknown>) => {
      scored.push(definition.checkpoint);
      scoredWith.push(message.account);
      return {};
    },
  };
  const logger = { error: () => undefined, warn: () => undefined };
  const setAside = new InMemorySetAsideStore();
  running.push(
    await startBusControllers(recording.bus, {
      controllers: [CheckpointResponders],
      providers: [
        { provide: MESSAGE_BUS, useValue: recording.bus },
        { provide: ROOT_LOGGER, useValue: logger },
        { provide: RINGFENCE_CONFIG, useValue: loadConfig({}, { port: 0 }) },
        { provide: CheckpointScorer, useValue: scorer },
        { provide: PublishBehind, useValue: new PublishBehind(recording.bus, new SetAsideRows(setAside), createLogger({ level: 'silent', service: 'test' })) },
      ],
    }),
  );
  return { ...recording, scored, scoredWith, setAside };
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

  it("scores an /async transaction with the account's facts asked of the gateway, and publishes its decision; an unknown account's is not scored", async () => {
    const { consumers, scored, scoredWith, published } = await setup();
    const update = { timestamp: 1, checkpoint: 'pspBeforeAuth', transaction: { transactionId: 'tx-1' }, customer: { customerId: 'cus-1' } };

    await consumers.get(EventTopics.transactionUpdated)!.handler(envelope(update));
    await consumers.get(EventTopics.transactionUpdated)!.handler({ ...envelope(update), accountId: 'acc_unknown' });

    expect(scored).toEqual(['transaction']);
    expect(scoredWith).toEqual([FACTS]);
    expect(published).toEqual([EventTopics.transactionScored]);
  });

  describe('an /async decision the broker does not take (ADR-0016)', () => {
    const update = { timestamp: 1, checkpoint: 'pspBeforeAuth', transaction: { transactionId: 'tx-1' }, customer: { customerId: 'cus-1' } };

    it('fails the delivery while the refused decision has tries left, then sets it aside and is done with the event; the next event’s decision is published', async () => {
      const { consumers, published, broker, setAside } = await setup();
      const deliver = (eventId: string) => consumers.get(EventTopics.transactionUpdated)!.handler({ ...envelope(update), eventId });
      broker.failure = () => new BusMessageRefusedError(EventTopics.transactionScored, 'MESSAGE_TOO_LARGE');
      for (let delivery = 1; delivery < DEFAULT_ROW_ATTEMPTS; delivery += 1) await expect(deliver('evt-refused')).rejects.toThrow('not written yet');

      await expect(deliver('evt-refused')).resolves.toBeUndefined();

      expect(setAside.rows).toEqual([expect.objectContaining({ writer: PUBLISH_BEHIND_WRITER, accountId: 'acc_1', key: `${EventTopics.transactionScored}:evt-refused`, attempts: DEFAULT_ROW_ATTEMPTS })]);
      broker.failure = undefined;
      await deliver('evt-next');
      expect(published).toEqual([EventTopics.transactionScored]);
    });

    it('fails every delivery while the broker is unavailable, setting nothing aside', async () => {
      const { consumers, broker, setAside } = await setup();
      broker.failure = () => new BusUnavailableError('Kafka did not accept the message');
      for (let delivery = 0; delivery < DEFAULT_ROW_ATTEMPTS + 2; delivery += 1) {
        await expect(consumers.get(EventTopics.transactionUpdated)!.handler(envelope(update))).rejects.toThrow('not written yet');
      }
      expect(setAside.rows).toEqual([]);
    });
  });
});
