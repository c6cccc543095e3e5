import { randomUUID } from 'node:crypto';
import { BusRemoteError, BusTimeoutError } from '../../bus-errors';
import { CHECKPOINT, checkpointReply, type ConformanceFixture, CUSTOMER_UPDATED } from './conformance-fixture';
import { delay, eventEnvelope, markerOf, requestEnvelope } from '../message-envelope.factory';

/** Read your writes: a consistent responder runs once its groups have handled what was published before the request. */
export function describeReadYourWritesConformance({ newBus, target }: ConformanceFixture): void {
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

    it('fails instead of answering from stale state, and never runs the handler of a request it gave up on', async () => {
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

      // In one process the request times out; across processes (Kafka) the responder answers in
      // time with a failure naming the group that lagged (unanswered.ts), for the requester to name.
      const error = await outcome.then(() => null, (failure: unknown) => failure);
      const seen = error instanceof BusTimeoutError ? 'timed out' : error instanceof BusRemoteError ? { status: error.status, unanswered: error.unanswered } : error;
      expect(['timed out', { status: 503, unanswered: [`the consumer group ${stateGroup}`] }]).toContainEqual(seen);
      await delay(300);
      expect(answered).toBe(0);
    });
  });
}
