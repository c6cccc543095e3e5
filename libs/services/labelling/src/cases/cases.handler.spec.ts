import type { INestMicroservice } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { InProcessMessageBus, type MessageBus, type RespondOptions, SILENT_BUS_LOGGER, type SubscribeOptions } from '@ringfence/bus';
import { InMemoryEventLogStore, startBusControllers } from '@ringfence/bus/testing';
import { DECISION_TOPICS, EventTopics, type MessageEnvelope, RpcTopics, StateGroups } from '@ringfence/contracts';
import { CASE_REPOSITORY, type CaseRecord, type CaseRepository } from '@ringfence/labels';
import { createLogger } from '@ringfence/platform';
import { MESSAGE_BUS, ROOT_LOGGER } from '@ringfence/service-runtime';
import { CasesHandler } from './cases.handler';

type Handler = (message: MessageEnvelope<unknown>) => Promise<unknown>;

const running: INestMicroservice[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((microservice) => microservice.close()));
});

async function setup() {
  const subscriptions = new Map<string, { options: SubscribeOptions; handler: Handler }>();
  const responders = new Map<string, { options: RespondOptions; handler: Handler }>();
  const published: Array<{ topic: string; message: MessageEnvelope<unknown> }> = [];
  const bus = {
    subscribe: (topic: string, options: SubscribeOptions, handler: Handler) => subscriptions.set(topic, { options, handler }),
    handle: (topic: string, options: RespondOptions, handler: Handler) => responders.set(topic, { options, handler }),
    publish: async (topic: string, message: MessageEnvelope<unknown>) => void published.push({ topic, message }),
    start: async () => undefined,
    stop: async () => undefined,
  } as unknown as MessageBus;
  const added: unknown[][] = [];
  const repository = {
    addReviewDecision: async (...args: unknown[]) => (added.push(args), 'opened'),
    recordPaymentReview: async () => undefined,
    latestCaseOf: async () => null,
  } as unknown as CaseRepository;
  running.push(
    await startBusControllers(bus, {
      controllers: [CasesHandler],
      providers: [
        { provide: MESSAGE_BUS, useValue: bus },
        { provide: CASE_REPOSITORY, useValue: repository },
        { provide: ROOT_LOGGER, useValue: createLogger({ level: 'silent', service: 'test' }) },
      ],
    }),
  );
  const envelope = (payload: unknown): MessageEnvelope<unknown> => ({ eventId: 'evt-1', accountId: 'acc_1', environment: 'live', subjectId: 'cus-1', acceptedAt: 1, traceId: 't', payload });
  return { subscriptions, responders, published, added, envelope };
}

describe(CasesHandler.name, () => {
  it('consumes every decision topic in the cases group, and answers each case request only once that group has caught up', async () => {
    const { subscriptions, responders } = await setup();

    expect([...subscriptions.keys()].sort()).toEqual([...DECISION_TOPICS].sort());
    expect([...subscriptions.keys()].sort()).toEqual([...StateGroups.cases.topics].sort());
    for (const { options } of subscriptions.values()) expect(options).toEqual({ group: 'cases' });
    expect([...responders.keys()].sort()).toEqual(
      [RpcTopics.listCases, RpcTopics.readCase, RpcTopics.caseAction, RpcTopics.nextCase, RpcTopics.bulkCases, RpcTopics.reviewPayment, RpcTopics.withdrawPaymentReview].sort(),
    );
    for (const { options } of responders.values()) expect(options).toEqual({ group: 'labelling', consistentWith: [StateGroups.cases] });
  });

  it('adds a REVIEW decision of the envelope\'s tenant and ignores the others', async () => {
    const { subscriptions, added, envelope } = await setup();
    const decision = { checkpoint: 'customer', ruleCheckpoint: 'customer', timestamp: 5, scoreId: 'scr_1', subject: { kind: 'customer', id: 'cus-1' }, recommendation: { action: 'REVIEW', score: 80 } };

    await subscriptions.get(EventTopics.customerScored)!.handler(envelope(decision));
    await subscriptions.get(EventTopics.customerScored)!.handler(envelope({ ...decision, recommendation: { action: 'ALLOW', score: 1 } }));
    await subscriptions.get(EventTopics.customerScored)!.handler(envelope(null));

    expect(added).toEqual([[{ accountId: 'acc_1', environment: 'live' }, { kind: 'customer', id: 'cus-1' }, expect.objectContaining({ decisionKey: 'scr_1', score: 80 }), expect.any(Function), expect.any(Number)]]);
  });

  it('publishes a payment review on the feed topic after storing it, and refuses an invalid one', async () => {
    const { responders, published, envelope } = await setup();
    const actor = { email: 'ana@shop.example', name: 'Ana' };

    await responders.get(RpcTopics.reviewPayment)!.handler(envelope({ transactionId: 'tx-1', customerId: 'cus-1', decision: 'fraud', actor }));
    await expect(responders.get(RpcTopics.reviewPayment)!.handler(envelope({ transactionId: 'tx-1', decision: 'maybe', actor }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });

    expect(published).toEqual([
      {
        topic: EventTopics.paymentReviewed,
        message: expect.objectContaining({
          payload: { accountId: 'acc_1', environment: 'live', transactionId: 'tx-1', customerId: 'cus-1', decision: 'fraud', withdrawn: false, actor: actor.email, comment: null, at: expect.any(Number) },
        }),
      },
    ]);
  });

  it('answers a list only once the cases group has handled the decisions published before it (read your writes), however slow its writes', async () => {
    const bus = new InProcessMessageBus({ eventLog: new InMemoryEventLogStore(), logger: SILENT_BUS_LOGGER, commitIntervalMs: 5 });
    const stored: CaseRecord[] = [];
    // A consumer that takes its time: without the barrier the list below would be answered first.
    const repository = {
      addReviewDecision: async (_tenant: unknown, subject: { id: string }) => {
        await delay(200);
        stored.push({ caseId: `cas_${subject.id}`, subjectId: subject.id } as CaseRecord);
        return 'opened';
      },
      list: async () => [...stored],
      count: async () => stored.length,
    } as unknown as CaseRepository;
    running.push(
      await startBusControllers(bus, {
        controllers: [CasesHandler],
        providers: [
          { provide: MESSAGE_BUS, useValue: bus },
          { provide: CASE_REPOSITORY, useValue: repository },
          { provide: ROOT_LOGGER, useValue: createLogger({ level: 'silent', service: 'test' }) },
        ],
      }),
    );
    const tenant = { accountId: 'acc_1', environment: 'live' as const, subjectId: 'cus-9', acceptedAt: Date.now(), traceId: 't' };
    const decision = { checkpoint: 'customer', ruleCheckpoint: 'customer', timestamp: 5, scoreId: 'scr_9', subject: { kind: 'customer', id: 'cus-9' }, recommendation: { action: 'REVIEW', score: 80 } };

    await bus.publish(EventTopics.customerScored, { ...tenant, eventId: 'evt-9', payload: decision } as never);
    const reply = await bus.request(RpcTopics.listCases, { ...tenant, eventId: 'req-9', payload: { status: 'active', order: 'recent', limit: 20 } }, { timeoutMs: 5_000 });

    expect(reply.total).toBe(1);
    expect(reply.cases.map((record) => record.subjectId)).toEqual(['cus-9']);
  });
});
