import { randomUUID } from 'node:crypto';
import { type MessageEnvelope } from '@ringfence/contracts';
import { INTERNAL_ERROR_MESSAGE } from '@ringfence/platform';
import { BusRemoteError, BusTimeoutError, BusUnavailableError } from '../../bus-errors';
import { ACCOUNT_FACTS, byEventId, CHECKPOINT, checkpointReply, type ConformanceFixture } from './conformance-fixture';
import { delay, markerOf, RecordingBusLogger, requestEnvelope } from '../message-envelope.factory';

/** Request-reply: replies, coded and unexpected failures, timeouts, abandonment, stopping with requests pending. */
export function describeRequestConformance({ newBus, target }: ConformanceFixture): void {
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
}
