import { randomUUID } from 'node:crypto';
import { RpcTopics } from '@ringfence/contracts';
import { BusRemoteError } from '../bus-errors';
import { CHECKPOINT, type CheckpointReply, DELIVERY_TIMEOUT_MS, TOPIC, useKafkaBuses } from '../test-support/kafka-bus.int-fixture';
import { eventEnvelope, requestEnvelope } from '../test-support/message-envelope.factory';

// A group join alone takes 3 s on the mock (kafka-read-your-writes.int-spec.ts).
jest.setTimeout(60_000);

/** The requester's budget: what did not answer must be named within it, not found out by a timeout. */
const BUDGET_MS = 1_500;

async function failureOf(request: Promise<unknown>): Promise<{ error: unknown; elapsedMs: number }> {
  const started = Date.now();
  const error = await request.then(
    () => new Error('answered'),
    (failure: unknown) => failure,
  );
  return { error, elapsedMs: Date.now() - started };
}

/** A failed reply names what the responder waited for in vain, and reaches the requester before its deadline. */
describe('KafkaMessageBus: what did not answer', () => {
  const { createBus } = useKafkaBuses({ sharedMock: true });

  it('answers a request whose state does not catch up with a failure naming the consumer group, before the deadline', async () => {
    const runId = randomUUID();
    const stateGroup = `never-consumes-${runId}`;
    const responder = createBus({ consumeReplies: false });
    responder.handle(CHECKPOINT, { group: `reader-${runId}`, consistentWith: [{ group: stateGroup, topics: [TOPIC] }] }, async () => ({}) as CheckpointReply);
    const requester = createBus();
    await Promise.all([responder, requester].map((bus) => bus.start()));
    // An event nobody in `stateGroup` consumes: the group never reaches its end offset.
    await requester.publish(TOPIC, eventEnvelope(TOPIC, { traceId: runId }));

    const { error, elapsedMs } = await failureOf(requester.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: BUDGET_MS }));

    expect(error).toBeInstanceOf(BusRemoteError);
    expect(error).toMatchObject({ status: 503, code: 'DEPENDENCY_UNAVAILABLE', unanswered: [`the consumer group ${stateGroup}`] });
    expect(elapsedMs).toBeLessThan(BUDGET_MS);
  });

  it('answers a request whose handler asked a service that does not answer with a failure naming that service, before the deadline', async () => {
    const runId = randomUUID();
    const outer = createBus();
    // Nobody answers the graph's topic in this test: the handler's own request gives up before its requester's deadline (replyMarginMs).
    outer.handle(CHECKPOINT, { group: `outer-${runId}` }, async (message) => {
      await outer.request(RpcTopics.graphNetworkFeatures, requestEnvelope(RpcTopics.graphNetworkFeatures, { traceId: message.traceId }) as never, { timeoutMs: DELIVERY_TIMEOUT_MS });
      return {} as CheckpointReply;
    });
    const requester = createBus();
    await Promise.all([outer, requester].map((bus) => bus.start()));

    const { error, elapsedMs } = await failureOf(requester.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: BUDGET_MS }));

    expect(error).toBeInstanceOf(BusRemoteError);
    expect(error).toMatchObject({ status: 503, unanswered: ['graph'] });
    expect(elapsedMs).toBeLessThan(BUDGET_MS);
  });
});
