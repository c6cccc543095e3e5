import { Injectable, type INestApplication, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { EventTopics, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { AppError, INTERNAL_ERROR_MESSAGE } from '@ringfence/platform';
import { lastValueFrom } from 'rxjs';
import { BusRemoteError, BusTimeoutError, BusUnavailableError } from '../bus-errors';
import { InProcessMessageBus } from '../in-process/in-process-message-bus';
import { InMemoryEventLogStore } from '../test-support/in-memory-event-log.store';
import { delay, Inbox, markerOf, RecordingBusLogger, type TestPayload, testEnvelope } from '../test-support/message-envelope.factory';
import { type ConnectMessageBusOptions, connectMessageBus } from './connect-message-bus';
import { MessageBusClient } from './message-bus.client';
import { MessageBusContext } from './message-bus.context';
import { MessageBusController } from './message-bus.controller';

const CUSTOMER_UPDATED = EventTopics.customerUpdated;
const CHECKPOINT = RpcTopics.customerCheckpoint;
const STATE_GROUP = 'transport-spec-state';

/** Commits recorded with whether the write-behind state had unwritten changes at that moment. */
class RecordingEventLog extends InMemoryEventLogStore {
  readonly commitsWithPending: Array<{ group: string; pending: number }> = [];
  constructor(private readonly state: WriteBehindState) {
    super();
  }
  override async commitOffsets(offsets: ReadonlyArray<{ group: string; topic: string; sequence: number }>): Promise<void> {
    for (const { group } of offsets) this.commitsWithPending.push({ group, pending: this.state.pending.length });
    await super.commitOffsets(offsets);
  }
}

/** State kept by one consumer group, written behind; `gate` holds its handler back while a test needs it. */
@Injectable()
class WriteBehindState {
  readonly applied: string[] = [];
  pending: string[] = [];
  flushes = 0;
  gate: Promise<void> = Promise.resolve();

  async flush(): Promise<void> {
    this.flushes += 1;
    this.pending = [];
  }
}

@Injectable()
class Deliveries {
  readonly audit = new Inbox<MessageEnvelope<unknown>>();
  readonly attempts = new Map<string, number>();
}

@MessageBusController()
class CheckpointController {
  constructor(private readonly state: WriteBehindState) {}

  @MessagePattern(CHECKPOINT, { group: 'transport-spec-scoring', consistentWith: [{ group: STATE_GROUP, topics: [CUSTOMER_UPDATED] }] })
  async score(@Payload() message: MessageEnvelope<TestPayload>, @Ctx() context: MessageBusContext) {
    switch (markerOf(message)) {
      case 'invalid':
        throw new AppError('VALIDATION_FAILED', 'payload.marker: is not a marker');
      case 'crash':
        throw new Error('a detail that must stay in the log');
      case 'dependency':
        throw new BusTimeoutError(RpcTopics.graphNetworkFeatures, 5);
      case 'slow':
        await delay(200);
    }
    return { topic: context.getTopic(), eventId: message.eventId, applied: [...this.state.applied] };
  }
}

@MessageBusController()
class StateController {
  constructor(private readonly state: WriteBehindState) {}

  @EventPattern(CUSTOMER_UPDATED, { group: STATE_GROUP, beforeCommit: WriteBehindState })
  async apply(@Payload() message: MessageEnvelope<TestPayload>): Promise<void> {
    await this.state.gate;
    this.state.applied.push(markerOf(message));
    this.state.pending.push(markerOf(message));
  }
}

@MessageBusController()
class AuditController {
  constructor(private readonly deliveries: Deliveries) {}

  /** The same topic as `StateController`, in another group: Nest would chain the two handlers. */
  @EventPattern(CUSTOMER_UPDATED, { group: 'transport-spec-audit' })
  async record(@Payload() message: MessageEnvelope<TestPayload>): Promise<void> {
    const attempt = (this.deliveries.attempts.get(message.eventId) ?? 0) + 1;
    this.deliveries.attempts.set(message.eventId, attempt);
    if (markerOf(message) === 'flaky' && attempt === 1) throw new Error('transient');
    this.deliveries.audit.push(message);
  }
}

@MessageBusController()
class GrouplessController {
  @EventPattern(CUSTOMER_UPDATED)
  apply(): Promise<void> {
    return Promise.resolve();
  }
}

@MessageBusController()
class ReadingThroughController {
  @MessagePattern(CHECKPOINT, { group: 'transport-spec-scoring', consistentWith: [{ group: STATE_GROUP, topics: [CUSTOMER_UPDATED] }], readsThrough: [{ group: 'graph', topics: [CUSTOMER_UPDATED] }] })
  score(): Promise<void> {
    return Promise.resolve();
  }
}

@MessageBusController()
class MisspelledController {
  @MessagePattern(CHECKPOINT, { group: 'transport-spec-scoring', consistenWith: [] })
  score(): Promise<void> {
    return Promise.resolve();
  }
}

interface Running {
  app: INestApplication;
  bus: InProcessMessageBus;
  eventLog: RecordingEventLog;
  logger: RecordingBusLogger;
  client: MessageBusClient;
  state: WriteBehindState;
  deliveries: Deliveries;
}

type Dispatch = NonNullable<ConnectMessageBusOptions['dispatch']>;

const apps: INestApplication[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A hybrid app as the runtime builds it: HTTP app, bus transporter connected, init, then the microservice started. */
async function createApp(dispatch: Dispatch, controllers: Array<Type<unknown>>): Promise<Omit<Running, 'client'>> {
  const state = new WriteBehindState();
  const eventLog = new RecordingEventLog(state);
  const logger = new RecordingBusLogger();
  const bus = new InProcessMessageBus({ eventLog, logger, commitIntervalMs: 5, handlerRetry: { initialDelayMs: 10, maxDelayMs: 20 } });
  const deliveries = new Deliveries();
  @Module({ controllers, providers: [{ provide: WriteBehindState, useValue: state }, { provide: Deliveries, useValue: deliveries }] })
  class TransportSpecModule {}
  const app = await NestFactory.create(TransportSpecModule, new FastifyAdapter(), { logger: false });
  apps.push(app);
  connectMessageBus(app, bus, { dispatch });
  await app.init();
  return { app, bus, eventLog, logger, state, deliveries };
}

async function startApp(dispatch: Dispatch, controllers: Array<Type<unknown>> = [CheckpointController, StateController, AuditController]): Promise<Running> {
  const running = await createApp(dispatch, controllers);
  await running.app.startAllMicroservices();
  return { ...running, client: new MessageBusClient(running.bus, { timeoutMs: 1000 }) };
}

const send = (client: MessageBusClient, envelope: object) => lastValueFrom(client.send(CHECKPOINT, envelope));
const emit = (client: MessageBusClient, envelope: object) => lastValueFrom(client.emit(CUSTOMER_UPDATED, envelope), { defaultValue: undefined });

function outgoing(marker: string, overrides: Partial<MessageEnvelope<TestPayload>> = {}) {
  const { eventId: _generatedByTheClient, ...envelope } = testEnvelope({ payload: { marker }, ...overrides });
  return envelope;
}

// Both ways a message reaches its handler keep the same behaviour: Nest's RPC pipeline, and the direct call of the embedded mode.
describe.each<Dispatch>(['nest', 'direct'])('MessageBusServer and MessageBusClient, dispatch %s', (dispatch) => {
  it('answers send with the @MessagePattern handler, which gets the envelope and the topic', async () => {
    const { client } = await startApp(dispatch);

    const reply = await send(client, outgoing('hello'));

    expect(reply).toEqual({ topic: CHECKPOINT, eventId: expect.any(String), applied: [] });
  });

  it('keeps an eventId the caller gave and gives one to an envelope without', async () => {
    const { client } = await startApp(dispatch);

    await expect(send(client, testEnvelope({ eventId: 'evt_given', payload: { marker: 'hello' } }))).resolves.toMatchObject({ eventId: 'evt_given' });
    const first = (await send(client, outgoing('hello'))) as { eventId: string };
    const second = (await send(client, outgoing('hello'))) as { eventId: string };
    expect(first.eventId).not.toBe(second.eventId);
  });

  it('emits durably: the event is in the log when emit completes, and reaches every @EventPattern group once', async () => {
    const { client, eventLog, state, deliveries } = await startApp(dispatch);

    await emit(client, outgoing('first'));
    expect(eventLog.events.map((event) => [event.topic, markerOf(event.envelope)])).toEqual([[CUSTOMER_UPDATED, 'first']]);
    await emit(client, outgoing('second'));

    const audited = await deliveries.audit.waitFor(2, 2000);
    await delay(50);
    expect(audited.map(markerOf)).toEqual(['first', 'second']);
    expect(state.applied).toEqual(['first', 'second']);
  });

  it('subscribes each @EventPattern with the group of its extras', async () => {
    const { client, eventLog, deliveries } = await startApp(dispatch);

    await emit(client, outgoing('grouped'));
    await deliveries.audit.waitFor(1, 2000);

    await waitUntil(() => new Set(eventLog.commits.map(({ group }) => group)).size === 2);
    expect(new Set(eventLog.commits.map(({ group, topic }) => `${group} ${topic}`))).toEqual(
      new Set([`${STATE_GROUP} ${CUSTOMER_UPDATED}`, `transport-spec-audit ${CUSTOMER_UPDATED}`]),
    );
  });

  it('honours consistentWith: a request waits until the named group has handled the events published before it', async () => {
    const { client, state } = await startApp(dispatch);
    let open!: () => void;
    state.gate = new Promise((resolve) => (open = resolve));

    await emit(client, outgoing('written'));
    const answering = send(client, outgoing('read'));
    const early = await Promise.race([answering.then(() => 'answered'), delay(100).then(() => 'waiting')]);
    open();

    expect(early).toBe('waiting');
    await expect(answering).resolves.toMatchObject({ applied: ['written'] });
  });

  it('honours beforeCommit: the provider is flushed before the group commits what its handler applied', async () => {
    const { client, eventLog, state } = await startApp(dispatch);

    for (const marker of ['one', 'two', 'three']) await emit(client, outgoing(marker));
    await waitUntil(() => eventLog.commits.some(({ group, sequence }) => group === STATE_GROUP && sequence === 3));

    expect(state.flushes).toBeGreaterThan(0);
    const stateCommits = eventLog.commitsWithPending.filter(({ group }) => group === STATE_GROUP);
    expect(stateCommits.length).toBeGreaterThan(0);
    expect(stateCommits.every(({ pending }) => pending === 0)).toBe(true);
  });

  it('delivers an event again after its handler threw, as the bus does', async () => {
    const { client, deliveries } = await startApp(dispatch);

    await emit(client, outgoing('flaky'));

    const [delivered] = await deliveries.audit.waitFor(1, 2000);
    expect(deliveries.attempts.get(delivered.eventId)).toBe(2);
  });

  describe('errors, mapped as the bus maps every responder error', () => {
    it('keeps the code, status and message of a coded client error', async () => {
      const { client } = await startApp(dispatch);

      const error = await send(client, outgoing('invalid')).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(BusRemoteError);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, message: 'payload.marker: is not a marker' });
    });

    it('answers an unexpected error as INTERNAL with the generic message, and the bus logs it', async () => {
      const { client, logger } = await startApp(dispatch);

      const error = await send(client, outgoing('crash')).catch((caught: unknown) => caught);

      expect(error).toMatchObject({ code: 'INTERNAL', status: 500, message: INTERNAL_ERROR_MESSAGE });
      expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'error', message: 'request handler failed' }));
    });

    it("answers a dependency's timeout as DEPENDENCY_UNAVAILABLE", async () => {
      const { client } = await startApp(dispatch);

      await expect(send(client, outgoing('dependency'))).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', status: 503 });
    });

    it("fails send with BusTimeoutError after the client's timeout", async () => {
      const { client } = await startApp(dispatch);

      await expect(lastValueFrom(client.withTimeout(50).send(CHECKPOINT, outgoing('slow')))).rejects.toBeInstanceOf(BusTimeoutError);
    });
  });

  describe('lifecycle', () => {
    it('starts the bus when the microservices start, after init, and stops it when the app closes', async () => {
      const { app, bus } = await createApp(dispatch, [CheckpointController, StateController]);
      expect(await bus.isReady()).toBe(false);

      await app.startAllMicroservices();
      expect(await bus.isReady()).toBe(true);

      await app.close();
      expect(await bus.isReady()).toBe(false);
      await expect(bus.publish(CUSTOMER_UPDATED, testEnvelope() as never)).rejects.toBeInstanceOf(BusUnavailableError);
    });

    it('refuses to start a pattern that names no group', async () => {
      const { app, bus } = await createApp(dispatch, [GrouplessController]);

      await expect(app.startAllMicroservices()).rejects.toThrow(`the event handler of ${CUSTOMER_UPDATED} names no group`);
      expect(await bus.isReady()).toBe(false);
    });

    it('registers the responder with the options of its extras', async () => {
      const { app, bus } = await createApp(dispatch, [ReadingThroughController]);
      const handle = jest.spyOn(bus, 'handle');

      await app.startAllMicroservices();
      expect(handle).toHaveBeenCalledWith(
        CHECKPOINT,
        { group: 'transport-spec-scoring', consistentWith: [{ group: STATE_GROUP, topics: [CUSTOMER_UPDATED] }], readsThrough: [{ group: 'graph', topics: [CUSTOMER_UPDATED] }] },
        expect.any(Function),
      );
    });

    it('refuses extras the bus does not read, so a misspelt option is not ignored', async () => {
      const { app } = await createApp(dispatch, [MisspelledController]);

      await expect(app.startAllMicroservices()).rejects.toThrow('has extras the bus does not read: consistenWith');
    });
  });
});

/**
 * Polls the event log's record of offset commits: commits run beside the handlers, at most once
 * per interval, asynchronous by design; no request's answer depends on them.
 */
async function waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(5);
  }
}
