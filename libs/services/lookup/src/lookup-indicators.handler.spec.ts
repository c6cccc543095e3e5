import type { INestMicroservice } from '@nestjs/common';
import type { MessageBus, RespondOptions } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { type CheckpointIndicatorEvidence, LOOKUP_INDICATOR_REPOSITORY, type LookupIndicatorRepository } from '@ringfence/lookup';
import { MESSAGE_BUS } from '@ringfence/service-runtime';
import { LookupIndicatorsHandler } from './lookup-indicators.handler';

const running: INestMicroservice[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((microservice) => microservice.close()));
});

const evidence: CheckpointIndicatorEvidence = {
  kind: 'email',
  value: 'fraud@example.com',
  own: { chargebacks: 1, manualReviews: 0, reports: 0 },
  otherAccounts: 2,
  otherEvidence: { chargebacks: 0, manualReviews: 2, reports: 0 },
  otherLastSeen: 5,
};

async function setup() {
  const asked: unknown[][] = [];
  const repository = {
    checkpointEvidence: async (...args: unknown[]) => {
      asked.push(args);
      return [evidence];
    },
  } as unknown as LookupIndicatorRepository;
  const responders = new Map<string, { options: RespondOptions; handler: (message: MessageEnvelope<unknown>) => Promise<unknown> }>();
  const bus = {
    handle: (topic: string, options: RespondOptions, handler: (message: MessageEnvelope<unknown>) => Promise<unknown>) => responders.set(topic, { options, handler }),
    start: async () => undefined,
    stop: async () => undefined,
  } as unknown as MessageBus;
  running.push(
    await startBusControllers(bus, {
      controllers: [LookupIndicatorsHandler],
      providers: [
        { provide: MESSAGE_BUS, useValue: bus },
        { provide: LOOKUP_INDICATOR_REPOSITORY, useValue: repository },
      ],
    }),
  );
  return { responders, asked };
}

const message = (payload: unknown): MessageEnvelope<unknown> => ({
  eventId: 'e1',
  accountId: 'acc_1',
  environment: 'live',
  subjectId: 'c1',
  acceptedAt: 1,
  traceId: 't',
  account: { industry: 'travel', settings: {} },
  payload,
});
const values = { emails: ['fraud@example.com'], phones: [], ips: ['203.0.113.9'], instrumentIds: [] };

describe(LookupIndicatorsHandler.name, () => {
  it('answers every lookup topic in the lookup group, with no barrier: its writes are stored before they are answered', async () => {
    const { responders } = await setup();

    expect([...responders.keys()].sort()).toEqual(
      [RpcTopics.addLookupIndicators, RpcTopics.readLookupIndicators, RpcTopics.deleteLookupIndicators, RpcTopics.checkpointEvidence].sort(),
    );
    for (const { options } of responders.values()) expect(options).toEqual({ group: 'lookup' });
  });

  it('answers scoring’s evidence question from its repository, for the envelope’s tenant with its industry, and the industry choice', async () => {
    const { responders, asked } = await setup();

    const reply = await responders.get(RpcTopics.checkpointEvidence)!.handler(message({ ...values, limitIndustry: true }));

    expect(reply).toEqual({ evidence: [evidence] });
    expect(asked).toEqual([[{ accountId: 'acc_1', environment: 'live', industry: 'travel' }, values, { limitIndustry: true }]]);
  });

  it('refuses a question without the industry choice before asking the repository', async () => {
    const { responders, asked } = await setup();

    await expect(responders.get(RpcTopics.checkpointEvidence)!.handler(message(values))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(asked).toEqual([]);
  });
});
