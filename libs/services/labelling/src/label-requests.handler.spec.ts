import type { INestMicroservice } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { type AccountFacts, type ApplyLabelRequest, EventTopics, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { LABEL_REPOSITORY, type LabelHistoryEntry, type LabelRepository, type LabelSubject, applyReview, currentLabelsOf } from '@ringfence/labels';
import { MESSAGE_BUS } from '@ringfence/service-runtime';
import { LabelRequestsHandler } from './label-requests.handler';

/** Keeps each subject's history in memory; the current labels are the history replayed. */
class MemoryLabelRepository implements LabelRepository {
  readonly histories = new Map<string, LabelHistoryEntry[]>();
  async apply(subject: LabelSubject, application: Parameters<LabelRepository['apply']>[1]) {
    const history = this.histories.get(JSON.stringify(subject)) ?? [];
    const { entry } = applyReview(currentLabelsOf(history)[application.category] ?? null, application);
    this.histories.set(JSON.stringify(subject), [...history, entry]);
    return entry;
  }
  async read(subject: LabelSubject) {
    const history = this.histories.get(JSON.stringify(subject)) ?? [];
    return { current: currentLabelsOf(history), history };
  }
  async currentLabels(accountId: string, environment: LabelSubject['environment'], kind: LabelSubject['kind'], subjectId: string) {
    return (await this.read({ accountId, environment, kind, subjectId })).current;
  }
}

type Published = { topic: string; message: MessageEnvelope<unknown> };

/**
 * Records what the transporter registers and what the handler publishes; requests are answered
 * by calling the registered handlers (through Nest's pipeline, as on a real bus).
 */
function recordingBus(facts: AccountFacts) {
  const published: Published[] = [];
  const responders = new Map<string, { group: string; handler: (message: MessageEnvelope<unknown>) => Promise<unknown> }>();
  const bus = {
    publish: async (topic: string, message: MessageEnvelope<unknown>) => {
      published.push({ topic, message });
    },
    handle: (topic: string, options: { group: string }, handler: (message: MessageEnvelope<unknown>) => Promise<unknown>) => {
      responders.set(topic, { group: options.group, handler });
    },
    start: async () => undefined,
    stop: async () => undefined,
  } as unknown as MessageBus;
  const request = (topic: string, payload: unknown, overrides: Partial<MessageEnvelope<unknown>> = {}) =>
    responders.get(topic)!.handler({
      eventId: 'evt-1',
      accountId: 'acc_1',
      environment: 'live',
      subjectId: 'cus-1',
      acceptedAt: 1,
      traceId: 'trace-1',
      // As the gateway sends them: the account as it is at this request.
      account: structuredClone(facts),
      payload,
      ...overrides,
    });
  return { bus, published, responders, request };
}

const running: INestMicroservice[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((microservice) => microservice.close()));
});

async function setup() {
  const account: AccountFacts = { industry: null, settings: {} };
  const labels = new MemoryLabelRepository();
  const recording = recordingBus(account);
  running.push(
    await startBusControllers(recording.bus, {
      controllers: [LabelRequestsHandler],
      providers: [
        { provide: MESSAGE_BUS, useValue: recording.bus },
        { provide: LABEL_REPOSITORY, useValue: labels },
      ],
    }),
  );
  return { ...recording, account, labels };
}

const applyLabel = (overrides: Partial<ApplyLabelRequest> = {}) => ({ subjectKind: 'customer', subjectId: 'cus-1', review: 'FRAUDSTER', ...overrides });

describe(LabelRequestsHandler.name, () => {
  it('answers the labelling topics in the labelling group', async () => {
    const { responders } = await setup();

    expect([...responders].map(([topic, { group }]) => [topic, group])).toEqual([
      [RpcTopics.applyLabel, 'labelling'],
      [RpcTopics.readLabels, 'labelling'],
      [RpcTopics.readCurrentLabels, 'labelling'],
    ]);
  });

  it('answers scoring’s read of the current labels with the review just applied, and no history', async () => {
    const { request } = await setup();
    await request(RpcTopics.applyLabel, applyLabel({ review: 'GENUINE' }));
    const { eventTime } = (await request(RpcTopics.applyLabel, applyLabel({ comment: 'ring' }))) as { eventTime: number };

    const reply = await request(RpcTopics.readCurrentLabels, { subjectKind: 'customer', subjectId: 'cus-1' });

    expect(reply).toEqual({ labels: { PAYMENT_FRAUD: { review: 'FRAUDSTER', eventTime, reviewer: null, comment: 'ring' } } });
    expect(await request(RpcTopics.readCurrentLabels, { subjectKind: 'customer', subjectId: 'cus-2' })).toEqual({ labels: {} });
  });

  it('stores the review, answers its eventTime and publishes the label event of the subject kind', async () => {
    const { request, published, labels } = await setup();

    const reply = (await request(RpcTopics.applyLabel, applyLabel({ reviewer: { name: 'Grace' }, comment: 'chargeback' }))) as { eventTime: number };

    const current = await labels.currentLabels('acc_1', 'live', 'customer', 'cus-1');
    expect(current.PAYMENT_FRAUD).toEqual({ review: 'FRAUDSTER', eventTime: reply.eventTime, reviewer: { name: 'Grace' }, comment: 'chargeback' });
    expect(published).toEqual([
      {
        topic: EventTopics.customerLabelUpdated,
        message: expect.objectContaining({
          accountId: 'acc_1',
          environment: 'live',
          subjectId: 'cus-1',
          traceId: 'trace-1',
          payload: {
            accountId: 'acc_1',
            environment: 'live',
            subjectKind: 'customer',
            subjectId: 'cus-1',
            category: 'PAYMENT_FRAUD',
            review: 'FRAUDSTER',
            previous: null,
            eventTime: reply.eventTime,
            reviewer: { name: 'Grace' },
            comment: 'chargeback',
          },
        }),
      },
    ]);
    expect(published[0].message.eventId).not.toBe('evt-1');
  });

  it('publishes supplier labels on the supplier topic', async () => {
    const { request, published } = await setup();

    await request(RpcTopics.applyLabel, applyLabel({ subjectKind: 'supplier', subjectId: 'sup-1', review: 'FRAUDULENT' }), { subjectId: 'sup-1' });

    expect(published.map(({ topic, message }) => [topic, (message.payload as { category: string }).category])).toEqual([
      [EventTopics.supplierLabelUpdated, 'SUPPLIER_FRAUD'],
    ]);
  });

  it('reads the POTENTIALLY_ switch from the account facts of each request', async () => {
    const { request, account, published } = await setup();
    const potential = applyLabel({ review: 'POTENTIALLY_FRAUDSTER' });

    await expect(request(RpcTopics.applyLabel, potential)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^review: /) });
    expect(published).toEqual([]);

    account.settings = { potentialLabelsEnabled: true };
    await expect(request(RpcTopics.applyLabel, potential)).resolves.toEqual({ eventTime: expect.any(Number) });
  });

  it('refuses a review that comes without its account facts, storing nothing', async () => {
    const { request, labels, published } = await setup();

    await expect(request(RpcTopics.applyLabel, applyLabel(), { account: undefined })).rejects.toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/carries no account facts/) });
    expect((await labels.read({ accountId: 'acc_1', environment: 'live', kind: 'customer', subjectId: 'cus-1' })).history).toEqual([]);
    expect(published).toEqual([]);
  });

  it('refuses an invalid message before anything is stored', async () => {
    const { request, labels } = await setup();

    await expect(request(RpcTopics.applyLabel, applyLabel({ subjectId: '' }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(labels.histories.size).toBe(0);
  });

  it('answers the current labels and the history', async () => {
    const { request } = await setup();
    await request(RpcTopics.applyLabel, applyLabel({ review: 'GENUINE' }));
    await request(RpcTopics.applyLabel, applyLabel({ review: 'UNREVIEWED' }));

    const reply = await request(RpcTopics.readLabels, { subjectKind: 'customer', subjectId: 'cus-1' });

    expect(reply).toEqual({
      labels: {},
      history: [
        expect.objectContaining({ category: 'PAYMENT_FRAUD', review: 'GENUINE', previous: null }),
        expect.objectContaining({ category: 'PAYMENT_FRAUD', review: 'UNREVIEWED', previous: 'GENUINE' }),
      ],
    });
  });
});
