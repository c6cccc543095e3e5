import { randomUUID } from 'node:crypto';
import { type AccountFacts, type RpcTopicMap, EventTopics, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { INTERNAL_ERROR_MESSAGE } from '@ringfence/platform';
import { BusRemoteError, BusTimeoutError, BusUnavailableError } from '../bus-errors';
import type { BusLogger } from '../bus-logger';
import type { HandlerRetryOptions } from '../handler-retry';
import type { MessageBus } from '../message-bus';
import { delay, eventEnvelope, Inbox, markerOf, RecordingBusLogger, requestEnvelope } from './message-envelope.factory';

/** A stand-in reply: the bus carries any JSON, and these tests only look at the marker. */
type CheckpointReply = RpcTopicMap[typeof RpcTopics.customerCheckpoint]['reply'];

/** Both adapters expose the number of waiting requests; the suite checks it drops back to 0. */
export interface ConformanceBus extends MessageBus {
  readonly inFlightRequests: number;
}

export interface MessageBusConformanceTarget {
  /** A new, unstarted bus. All buses of one target share one broker or one event log. */
  createBus(options: { handlerRetry: HandlerRetryOptions; logger: BusLogger }): ConformanceBus;
  /** Longest wait for a delivery; a Kafka group's first join alone takes seconds on the mock. */
  deliveryTimeoutMs: number;
  /** How long a test keeps listening for duplicates after the expected deliveries arrived. */
  quietPeriodMs: number;
}

const CUSTOMER_UPDATED = EventTopics.customerUpdated;
const TRANSACTION_UPDATED = EventTopics.transactionUpdated;
const CHECKPOINT = RpcTopics.customerCheckpoint;
const ACCOUNT_FACTS: AccountFacts = { industry: 'travel', settings: { defaultAction: 'REVIEW', lookupLimitIndustry: true } };
const FAST_RETRY: HandlerRetryOptions = { initialDelayMs: 20, maxDelayMs: 100 };

function byEventId(messages: Array<MessageEnvelope<unknown>>): Array<MessageEnvelope<unknown>> {
  return [...messages].sort((left, right) => left.eventId.localeCompare(right.eventId));
}

function checkpointReply(marker: string): CheckpointReply {
  return { marker } as unknown as CheckpointReply;
}

/**
 * The behaviour both `MessageBus` adapters must share (architecture.md: a test that passes in
 * one mode and fails in the other is a bug in an adapter). Call it inside a `describe` of the
 * adapter; `target` is read lazily, so it may come from a `beforeAll` (a broker to start).
 *
 * Topics and event logs outlive a test, and a new group reads a topic from its start, so every
 * test uses its own groups and keeps only the messages carrying its own trace id.
 */
export function describeMessageBusConformance(target: () => MessageBusConformanceTarget): void {
  const buses: ConformanceBus[] = [];

  function newBus(logger: BusLogger = new RecordingBusLogger()): ConformanceBus {
    const bus = target().createBus({ handlerRetry: FAST_RETRY, logger });
    buses.push(bus);
    return bus;
  }

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.stop()));
  });

  describe('events', () => {
    it('delivers every published event once to every group, and only to groups of its topic', async () => {
      const runId = randomUUID();
      const bus = newBus();
      const inboxes = { first: new Inbox<MessageEnvelope<unknown>>(), second: new Inbox<MessageEnvelope<unknown>>(), otherTopic: new Inbox<MessageEnvelope<unknown>>() };
      bus.subscribe(CUSTOMER_UPDATED, { group: `first-${runId}` }, async (message) => {
        if (message.traceId === runId) inboxes.first.push(message);
      });
      bus.subscribe(CUSTOMER_UPDATED, { group: `second-${runId}` }, async (message) => {
        if (message.traceId === runId) inboxes.second.push(message);
      });
      bus.subscribe(TRANSACTION_UPDATED, { group: `first-${runId}` }, async (message) => {
        if (message.traceId === runId) inboxes.otherTopic.push(message);
      });
      await bus.start();

      const sent = [1, 2, 3, 4, 5].map((n) => eventEnvelope(CUSTOMER_UPDATED, { traceId: runId, subjectId: `cust_${n}`, payload: { marker: `m${n}` } }));
      for (const message of sent) await bus.publish(CUSTOMER_UPDATED, message);

      await inboxes.first.waitFor(sent.length, target().deliveryTimeoutMs);
      await inboxes.second.waitFor(sent.length, target().deliveryTimeoutMs);
      await delay(target().quietPeriodMs);
      expect(byEventId(inboxes.first.items)).toEqual(byEventId(sent));
      expect(byEventId(inboxes.second.items)).toEqual(byEventId(sent));
      expect(inboxes.otherTopic.items).toEqual([]);
    });

    it("publishes an event without the account facts of the request it was made from", async () => {
      const runId = randomUUID();
      const bus = newBus();
      const inbox = new Inbox<MessageEnvelope<unknown>>();
      bus.subscribe(CUSTOMER_UPDATED, { group: `facts-${runId}` }, async (message) => {
        if (message.traceId === runId) inbox.push(message);
      });
      await bus.start();

      const event = eventEnvelope(CUSTOMER_UPDATED, { traceId: runId, subjectId: 'cust_1', payload: { marker: 'm1' } });
      await bus.publish(CUSTOMER_UPDATED, { ...event, account: ACCOUNT_FACTS });

      await inbox.waitFor(1, target().deliveryTimeoutMs);
      expect(inbox.items[0]).not.toHaveProperty('account');
      expect(inbox.items[0]?.payload).toEqual(event.payload);
    });

    it('keeps the publication order of the events of one key, even with handlers of varying speed', async () => {
      const runId = randomUUID();
      const bus = newBus();
      const inbox = new Inbox<MessageEnvelope<unknown>>();
      bus.subscribe(CUSTOMER_UPDATED, { group: `order-${runId}` }, async (message) => {
        if (message.traceId !== runId) return;
        await delay(Math.random() * 3);
        inbox.push(message);
      });
      await bus.start();

      const keys = ['cust_a', 'cust_b', 'cust_c'];
      const perKey = 20;
      for (let n = 0; n < perKey; n += 1) {
        for (const subjectId of keys) {
          await bus.publish(CUSTOMER_UPDATED, eventEnvelope(CUSTOMER_UPDATED, { traceId: runId, subjectId, payload: { marker: String(n) } }));
        }
      }

      await inbox.waitFor(keys.length * perKey, target().deliveryTimeoutMs);
      const expected = Array.from({ length: perKey }, (_, n) => String(n));
      for (const subjectId of keys) {
        expect(inbox.items.filter((message) => message.subjectId === subjectId).map(markerOf)).toEqual(expected);
      }
    });

    it('retries a throwing handler on the same event until it succeeds, before the events after it', async () => {
      const runId = randomUUID();
      const logger = new RecordingBusLogger();
      const bus = newBus(logger);
      const inbox = new Inbox<string>();
      const attempts = new Map<string, number>();
      bus.subscribe(CUSTOMER_UPDATED, { group: `retry-${runId}` }, async (message) => {
        if (message.traceId !== runId) return;
        const marker = markerOf(message);
        const attempt = (attempts.get(marker) ?? 0) + 1;
        attempts.set(marker, attempt);
        if (marker === 'first' && attempt <= 2) throw new Error('the graph store is briefly unavailable');
        inbox.push(marker);
      });
      await bus.start();

      for (const marker of ['first', 'second', 'third']) {
        await bus.publish(CUSTOMER_UPDATED, eventEnvelope(CUSTOMER_UPDATED, { traceId: runId, payload: { marker } }));
      }

      await inbox.waitFor(3, target().deliveryTimeoutMs);
      await delay(target().quietPeriodMs);
      expect(inbox.items).toEqual(['first', 'second', 'third']);
      expect(Object.fromEntries(attempts)).toEqual({ first: 3, second: 1, third: 1 });
      const retries = logger.lines.filter((line) => line.level === 'warn' && line.fields['traceId'] === runId);
      expect(retries.map((line) => line.fields['attempt'])).toEqual([1, 2]);
    });

    it('resumes a restarted group after its committed offset: nothing handled comes again, nothing published meanwhile is lost', async () => {
      const runId = randomUUID();
      const group = `resume-${runId}`;
      const publishOne = async (bus: MessageBus, marker: string) =>
        bus.publish(CUSTOMER_UPDATED, eventEnvelope(CUSTOMER_UPDATED, { traceId: runId, payload: { marker } }));

      const before = newBus();
      const beforeInbox = new Inbox<string>();
      before.subscribe(CUSTOMER_UPDATED, { group }, async (message) => {
        if (message.traceId === runId) beforeInbox.push(markerOf(message));
      });
      await before.start();
      await publishOne(before, 'handled-1');
      await publishOne(before, 'handled-2');
      await beforeInbox.waitFor(2, target().deliveryTimeoutMs);
      await before.stop();

      const publisher = newBus();
      await publisher.start();
      await publishOne(publisher, 'while-down');
      await publisher.stop();

      const after = newBus();
      const afterInbox = new Inbox<string>();
      after.subscribe(CUSTOMER_UPDATED, { group }, async (message) => {
        if (message.traceId === runId) afterInbox.push(markerOf(message));
      });
      await after.start();
      await afterInbox.waitFor(1, target().deliveryTimeoutMs);
      await delay(target().quietPeriodMs);
      expect(afterInbox.items).toEqual(['while-down']);
    });

    it('abandons an event whose handler keeps failing when the bus stops, and delivers it again after a restart', async () => {
      const runId = randomUUID();
      const group = `stuck-${runId}`;
      const logger = new RecordingBusLogger();
      const failing = newBus(logger);
      failing.subscribe(CUSTOMER_UPDATED, { group }, async (message) => {
        if (message.traceId === runId) throw new Error('the handler is broken until the next deploy');
      });
      await failing.start();
      await failing.publish(CUSTOMER_UPDATED, eventEnvelope(CUSTOMER_UPDATED, { traceId: runId, payload: { marker: 'stuck' } }));
      const deadline = Date.now() + target().deliveryTimeoutMs;
      while (logger.lines.filter((line) => line.fields['traceId'] === runId).length < 2 && Date.now() < deadline) await delay(20);

      const stopAt = Date.now();
      await failing.stop();
      expect(Date.now() - stopAt).toBeLessThan(5_000);

      const fixed = newBus();
      const inbox = new Inbox<string>();
      fixed.subscribe(CUSTOMER_UPDATED, { group }, async (message) => {
        if (message.traceId === runId) inbox.push(markerOf(message));
      });
      await fixed.start();
      await inbox.waitFor(1, target().deliveryTimeoutMs);
      expect(inbox.items).toEqual(['stuck']);
    });
  });

  describe('requests', () => {
    it('answers each request with its own reply, also when many are in flight', async () => {
      const runId = randomUUID();
      const bus = newBus();
      const received: Array<MessageEnvelope<unknown>> = [];
      bus.handle(CHECKPOINT, { group: `scoring-${runId}` }, async (message) => {
        received.push(message);
        await delay(Math.random() * 5);
        return checkpointReply(`reply-to-${markerOf(message)}`);
      });
      await bus.start();

      const requests = Array.from({ length: 20 }, (_, n) =>
        requestEnvelope(CHECKPOINT, { traceId: runId, subjectId: `cust_${n % 3}`, payload: { marker: `r${n}` } }),
      );
      const replies = await Promise.all(requests.map((request) => bus.request(CHECKPOINT, request, { timeoutMs: 10_000 })));

      expect(replies).toEqual(requests.map((request) => checkpointReply(`reply-to-${markerOf(request)}`)));
      expect(byEventId(received)).toEqual(byEventId(requests));
      expect(bus.inFlightRequests).toBe(0);
    });

    it("carries a request's account facts to its responder", async () => {
      const runId = randomUUID();
      const bus = newBus();
      const received: Array<MessageEnvelope<unknown>> = [];
      bus.handle(CHECKPOINT, { group: `scoring-facts-${runId}` }, async (message) => {
        received.push(message);
        return checkpointReply('ok');
      });
      await bus.start();

      await bus.request(CHECKPOINT, { ...requestEnvelope(CHECKPOINT, { traceId: runId, subjectId: 'cust_1', payload: { marker: 'r1' } }), account: ACCOUNT_FACTS }, { timeoutMs: 10_000 });

      expect(received.map((message) => message.account)).toEqual([ACCOUNT_FACTS]);
    });

    it('rejects with BusRemoteError carrying the code, status and message of a coded failure', async () => {
      const runId = randomUUID();
      const bus = newBus();
      bus.handle(CHECKPOINT, { group: `scoring-${runId}` }, async () => {
        throw Object.assign(new Error('customer cust_1 is under review'), { code: 'CONFLICT', status: 409 });
      });
      await bus.start();

      const outcome = bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: 10_000 });

      await expect(outcome).rejects.toBeInstanceOf(BusRemoteError);
      await expect(outcome).rejects.toMatchObject({ topic: CHECKPOINT, code: 'CONFLICT', status: 409, message: 'customer cust_1 is under review' });
    });

    it('turns an unexpected failure into INTERNAL 500 with a generic message, and logs it with the trace id', async () => {
      const runId = randomUUID();
      const logger = new RecordingBusLogger();
      const bus = newBus(logger);
      bus.handle(CHECKPOINT, { group: `scoring-${runId}` }, async () => {
        throw new Error('connect ECONNREFUSED postgres://scoring:hunter2@db01');
      });
      await bus.start();

      const outcome = bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: 10_000 });

      const failure: unknown = await outcome.catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(BusRemoteError);
      expect(failure).toMatchObject({ code: 'INTERNAL', status: 500, message: INTERNAL_ERROR_MESSAGE });
      expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ traceId: runId }) }));
    });

    it('rejects with BusTimeoutError after timeoutMs, forgets the request, and ignores the late reply', async () => {
      const runId = randomUUID();
      const bus = newBus();
      const slowMs = 600;
      bus.handle(CHECKPOINT, { group: `scoring-${runId}` }, async (message) => {
        await delay(slowMs);
        return checkpointReply(markerOf(message));
      });
      await bus.start();

      const startedAt = Date.now();
      const late = bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId, payload: { marker: 'late' } }), { timeoutMs: 300 });
      await expect(late).rejects.toBeInstanceOf(BusTimeoutError);
      const waited = Date.now() - startedAt;
      expect(waited).toBeGreaterThanOrEqual(295);
      expect(waited).toBeLessThan(900);
      expect(bus.inFlightRequests).toBe(0);

      await delay(slowMs);
      const next = bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId, payload: { marker: 'next' } }), { timeoutMs: 10_000 });
      await expect(next).resolves.toEqual(checkpointReply('next'));
    });

    it("aborts the responder's signal once the requester stops waiting, at its deadline, so long work can stop", async () => {
      const runId = randomUUID();
      const bus = newBus();
      let abortedAt: number | undefined;
      const aborted = new Promise<void>((resolve) => {
        bus.handle(CHECKPOINT, { group: `scoring-${runId}` }, async (_message, { signal }) => {
          // Work that runs until nobody waits for it (a backtest), then stops as the signal says.
          await new Promise<void>((stop) => signal.addEventListener('abort', () => stop(), { once: true }));
          abortedAt = Date.now();
          resolve();
          signal.throwIfAborted();
          return checkpointReply('never');
        });
      });
      await bus.start();

      const startedAt = Date.now();
      await expect(bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: 300 })).rejects.toBeInstanceOf(BusTimeoutError);
      // The responder learns it when the deadline passes, wherever it runs: asynchronous by design.
      await Promise.race([aborted, delay(target().deliveryTimeoutMs)]);

      expect(abortedAt).toBeDefined();
      expect((abortedAt ?? 0) - startedAt).toBeGreaterThanOrEqual(290);
    });

    it('rejects pending requests with BusUnavailableError as soon as the bus stops', async () => {
      const runId = randomUUID();
      const bus = newBus();
      bus.handle(CHECKPOINT, { group: `scoring-${runId}` }, async (message) => {
        await delay(800);
        return checkpointReply(markerOf(message));
      });
      await bus.start();

      const pending = bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: 20_000 });
      await delay(100);
      const stopAt = Date.now();
      const stopping = bus.stop();
      await expect(pending).rejects.toBeInstanceOf(BusUnavailableError);
      expect(Date.now() - stopAt).toBeLessThan(500);
      await stopping;
      expect(bus.inFlightRequests).toBe(0);
    });
  });

  describe('read your writes', () => {
    it('runs a consistent responder only once the named group has handled what the account published before the request', async () => {
      const runId = randomUUID();
      const bus = newBus();
      const stateGroup = `state-${runId}`;
      const applied: string[] = [];
      bus.subscribe(CUSTOMER_UPDATED, { group: stateGroup }, async (message) => {
        if (message.traceId !== runId) return;
        // A slow consumer: without the barrier the request below would read before it is done.
        await delay(200);
        applied.push(markerOf(message));
      });
      bus.handle(CHECKPOINT, { group: `reader-${runId}`, consistentWith: [{ group: stateGroup, topics: [CUSTOMER_UPDATED] }] }, async () => checkpointReply([...applied].sort().join(',')));
      await bus.start();

      await bus.publish(CUSTOMER_UPDATED, eventEnvelope(CUSTOMER_UPDATED, { traceId: runId, payload: { marker: 'w1' } }));
      await bus.publish(CUSTOMER_UPDATED, eventEnvelope(CUSTOMER_UPDATED, { traceId: runId, subjectId: 'cust_other', payload: { marker: 'w2' } }));
      const reply = await bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: target().deliveryTimeoutMs });

      expect(reply).toEqual(checkpointReply('w1,w2'));
    });

    it('times out instead of answering from stale state, and never runs the handler of a request it gave up on', async () => {
      const runId = randomUUID();
      const bus = newBus();
      const stateGroup = `stuck-${runId}`;
      let answered = 0;
      bus.subscribe(CUSTOMER_UPDATED, { group: stateGroup }, async (message) => {
        if (message.traceId === runId) throw new Error('the state store is down');
      });
      bus.handle(CHECKPOINT, { group: `reader-${runId}`, consistentWith: [{ group: stateGroup, topics: [CUSTOMER_UPDATED] }] }, async () => {
        answered += 1;
        return checkpointReply('stale');
      });
      await bus.start();

      await bus.publish(CUSTOMER_UPDATED, eventEnvelope(CUSTOMER_UPDATED, { traceId: runId }));
      const outcome = bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: 1_500 });

      await expect(outcome).rejects.toBeInstanceOf(BusTimeoutError);
      await delay(300);
      expect(answered).toBe(0);
    });
  });

  describe('lifecycle', () => {
    it('accepts messages and reports ready only between start and stop', async () => {
      const bus = newBus();
      const event = () => eventEnvelope(CUSTOMER_UPDATED);
      const request = () => bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT), { timeoutMs: 1_000 });

      await expect(bus.publish(CUSTOMER_UPDATED, event())).rejects.toBeInstanceOf(BusUnavailableError);
      await expect(request()).rejects.toBeInstanceOf(BusUnavailableError);
      expect(await bus.isReady()).toBe(false);

      await bus.start();
      expect(await bus.isReady()).toBe(true);
      await expect(bus.publish(CUSTOMER_UPDATED, event())).resolves.toBeUndefined();
      expect(() => bus.subscribe(CUSTOMER_UPDATED, { group: 'too-late' }, async () => undefined)).toThrow(/before start/);

      await bus.stop();
      expect(await bus.isReady()).toBe(false);
      await expect(bus.publish(CUSTOMER_UPDATED, event())).rejects.toBeInstanceOf(BusUnavailableError);
      await expect(request()).rejects.toBeInstanceOf(BusUnavailableError);
    });

    it('says when it has started: true once started, false when stopped without having started', async () => {
      const started = newBus();
      const waiting = started.whenStarted();
      await started.start();
      await expect(waiting).resolves.toBe(true);
      await expect(started.whenStarted()).resolves.toBe(true);

      const neverStarted = newBus();
      const waitingInVain = neverStarted.whenStarted();
      await neverStarted.stop();
      await expect(waitingInVain).resolves.toBe(false);
    });
  });
}
