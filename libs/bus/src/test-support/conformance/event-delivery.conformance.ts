import { randomUUID } from 'node:crypto';
import { type MessageEnvelope } from '@ringfence/contracts';
import type { MessageBus } from '../../message-bus';
import { ACCOUNT_FACTS, byEventId, type ConformanceFixture, CUSTOMER_UPDATED, TRANSACTION_UPDATED } from './conformance-fixture';
import { delay, eventEnvelope, Inbox, markerOf, RecordingBusLogger } from '../message-envelope.factory';

/** Events: delivery to every group once, order per key, retry without overtaking, resuming after the committed offset. */
export function describeEventConformance({ newBus, target }: ConformanceFixture): void {
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
}
