import type { Principal } from '@ringfence/accounts';
import { BusMessageRefusedError, BusTimeoutError, BusUnavailableError, InProcessMessageBus } from '@ringfence/bus';
import { InMemoryEventLogStore } from '@ringfence/bus/testing';
import { EventTopics, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { AppError, DEFAULT_ROW_ATTEMPTS, InMemorySetAsideStore, SetAsideRows, createLogger, loadConfig } from '@ringfence/platform';
import { PUBLISH_BEHIND_WRITER, PublishBehind } from '@ringfence/service-runtime';
import { InMemoryCardKeyRepository } from '@ringfence/accounts/testing';
import { CardCipherIntake } from '../card-ciphers/card-cipher-intake.service';
import { CardEncryptionKeys } from '../card-ciphers/card-encryption-keys.service';
import { RateLimits } from '../rate-limit/rate-limits.service';
import { CheckpointRoutes } from './checkpoint-routes';
import { EventIntake, isDegraded } from './event-intake.service';

const NOW = 1_763_800_000_000;
const config = loadConfig({ RPC_TIMEOUT_MS: '50' }, { port: 8443 });
const principal = {
  account: { id: 'acc_1', name: 'acme', industry: null, settings: { defaultAction: 'REVIEW' }, createdAt: new Date(NOW) },
  environment: 'test',
  keyKind: 'secret',
  keyId: 'key_1',
} as Principal;
const customerSubmission = () => ({
  principal,
  subjectId: 'cus-1',
  payload: { timestamp: NOW, customer: { customerId: 'cus-1' } },
  traceId: 'trace-1',
});

type Answer = 'late' | 'client-error' | 'ok' | 'prevent' | 'ingestion-down';

/** The intake over a real in-process bus whose checkpoint and graph responders answer as told. */
async function setup(answer: Answer, limitsConfig = config, { logger = createLogger({ level: 'silent', service: 'test' }) } = {}) {
  const log = new InMemoryEventLogStore();
  const bus = new InProcessMessageBus({ eventLog: log });
  const asked: string[] = [];
  const requests: Array<MessageEnvelope<unknown>> = [];
  const respond = async <T>(topic: string, value: T): Promise<T> => {
    asked.push(topic);
    // Well past the 50 ms budget, but it does finish, so the bus can stop.
    if (answer === 'late') await new Promise((resolve) => setTimeout(resolve, 200));
    if (answer === 'client-error') throw new AppError('VALIDATION_FAILED', 'customer.customerId: must be a string');
    // Scoring's own request to ingestion timed out: its failed reply names ingestion.
    if (answer === 'ingestion-down') throw new BusTimeoutError('ringfence.rpc.ingestion.read-entity-documents.v1', 40);
    return value;
  };
  bus.handle(RpcTopics.customerCheckpoint, { group: 'scoring' }, (message) => {
    requests.push(message);
    return respond(RpcTopics.customerCheckpoint, {
      checkpoint: 'customer' as const,
      timestamp: NOW,
      recommendation: { customerId: 'cus-1', action: answer === 'prevent' ? ('PREVENT' as const) : ('ALLOW' as const), score: 7, source: 'RINGFENCE' as const, scoreId: 'scr_1', warnings: [] },
      features: { modelScore: 7 },
    });
  });
  bus.handle(RpcTopics.graphConnect, { group: 'graph' }, () => respond(RpcTopics.graphConnect, { count: 1 } as never));
  await bus.start();
  const setAside = new InMemorySetAsideStore();
  const publishBehind = new PublishBehind(bus, new SetAsideRows(setAside), logger);
  const cardCiphers = new CardCipherIntake(new CardEncryptionKeys(new InMemoryCardKeyRepository()));
  const intake = new EventIntake(bus, config, logger, new RateLimits(limitsConfig), publishBehind, cardCiphers);
  return { intake, log, bus, asked, requests, setAside, publishBehind };
}

describe(EventIntake.name, () => {
  it('publishes a checkpoint\'s event before it asks scoring, answers with the score, and publishes the decision it answered', async () => {
    const { intake, log, bus } = await setup('ok');
    const answer = await intake.checkpoint(CheckpointRoutes.customer, customerSubmission());
    expect(answer).toMatchObject({ action: 'ALLOW', score: 7 });
    expect(log.events.map((event) => event.topic)).toEqual([EventTopics.customerUpdated, EventTopics.customerScored]);
    expect(log.events[1].envelope.payload).toMatchObject({ recommendation: answer, features: { modelScore: 7 } });
    await bus.stop();
  });

  it("asks scoring with the account's facts but not its callback secret, and publishes the events without them", async () => {
    const { intake, log, bus, requests } = await setup('ok');
    const settings = { defaultAction: 'REVIEW' as const, callbackUrl: 'https://hooks.acme.example/', callbackSecret: 'a-callback-secret-0123' };
    const withCallbacks = { ...principal, account: { ...principal.account, industry: 'travel', settings } };

    await intake.checkpoint(CheckpointRoutes.customer, { ...customerSubmission(), principal: withCallbacks });

    expect(requests.map((request) => request.account)).toEqual([{ industry: 'travel', settings: { defaultAction: 'REVIEW', callbackUrl: 'https://hooks.acme.example/' } }]);
    expect(log.events.map((event) => 'account' in event.envelope)).toEqual([false, false]);
    expect(JSON.stringify([requests, log.events])).not.toContain('a-callback-secret-0123');
    await bus.stop();
  });

  it('answers the default action with a degraded warning, and publishes that decision, when scoring misses the budget after the data was kept', async () => {
    const { intake, log, bus } = await setup('late');
    const answer = await intake.checkpoint(CheckpointRoutes.customer, customerSubmission());
    expect(answer).toMatchObject({
      customerId: 'cus-1',
      action: 'REVIEW',
      source: 'RINGFENCE',
      score: 0,
      warnings: [{ class: 'degraded', help: '/docs/api#warning-degraded', msg: expect.stringContaining('scoring did not answer within 50 ms') }],
    });
    expect(log.events.map((event) => event.topic)).toEqual([EventTopics.customerUpdated, EventTopics.customerScored]);
    // Scoring's late answer is dropped: the feed keeps the one decision that was answered. The
    // wait gives that late answer (asynchronous by design: nobody awaits it) time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(log.events.filter((event) => event.topic === EventTopics.customerScored)).toHaveLength(1);
    expect(log.events[1].envelope.payload).toMatchObject({ recommendation: { source: 'RINGFENCE', score: 0 } });
    await bus.stop();
  });

  it('names what scoring waited for in vain in the degraded warning, and logs one warning for the outage, not one per answer', async () => {
    const warnings: string[] = [];
    const logger = createLogger({ level: 'silent', service: 'test' });
    jest.spyOn(logger, 'warn').mockImplementation(((_fields: object, message: string) => warnings.push(message)) as never);
    const { intake, bus } = await setup('ingestion-down', config, { logger });
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await intake.checkpoint(CheckpointRoutes.customer, customerSubmission()));
    expect(answers.map(({ warnings }) => warnings?.[0]?.msg)).toEqual(
      Array(3).fill('The data was kept, but ingestion, which scoring waits for, did not answer within 50 ms; this answer is not based on it.'),
    );
    expect(warnings).toEqual([expect.stringMatching(/^ingestion \(for scoring\) did not answer: answered degraded/)]);
    await bus.stop();
  });

  it('still refuses a request scoring calls invalid (4xx): that is the client\'s to fix, not a degraded answer', async () => {
    const { intake, bus } = await setup('client-error');
    await expect(intake.checkpoint(CheckpointRoutes.customer, customerSubmission())).rejects.toMatchObject({ status: 400 });
    await bus.stop();
  });

  it('answers 503 and asks nobody when the event could not be kept', async () => {
    const { intake, log, bus, asked } = await setup('ok');
    log.failWith('appendBatch', new Error('disk full'));
    await expect(intake.checkpoint(CheckpointRoutes.customer, customerSubmission())).rejects.toBeInstanceOf(BusUnavailableError);
    expect(asked).toEqual([]);
    await bus.stop();
  });

  it('answers, and keeps then sets aside the decision (not dropped), when the bus refuses the decision itself; the next checkpoint’s decision is published (ADR-0016)', async () => {
    const { intake, log, bus, setAside, publishBehind } = await setup('ok');
    const publish = bus.publish.bind(bus);
    let refuseDecisions = true;
    jest.spyOn(bus, 'publish').mockImplementation(async (topic, message) => {
      if (refuseDecisions && topic === EventTopics.customerScored) throw new BusMessageRefusedError(topic, 'MESSAGE_TOO_LARGE');
      return publish(topic, message);
    });

    await expect(intake.checkpoint(CheckpointRoutes.customer, customerSubmission())).resolves.toMatchObject({ action: 'ALLOW', score: 7 });
    expect(publishBehind.keptCount).toBe(1);
    for (let pass = 2; pass <= DEFAULT_ROW_ATTEMPTS; pass += 1) await publishBehind.retryKept();

    expect(setAside.rows).toEqual([expect.objectContaining({ writer: PUBLISH_BEHIND_WRITER, accountId: 'acc_1', environment: 'test' })]);
    expect(JSON.parse(setAside.rows[0].row)).toMatchObject({ topic: EventTopics.customerScored, envelope: { payload: { recommendation: { action: 'ALLOW', score: 7 } } } });
    refuseDecisions = false;
    await intake.checkpoint(CheckpointRoutes.customer, { ...customerSubmission(), traceId: 'trace-2' });
    expect(log.events.map((event) => event.topic)).toEqual([EventTopics.customerUpdated, EventTopics.customerUpdated, EventTopics.customerScored]);
    expect(publishBehind.keptCount).toBe(0);
    await bus.stop();
  });

  it('gives a degraded answer for a query over kept data (connect with features) when the graph does not answer', async () => {
    const { intake, log, bus } = await setup('late');
    const answer = await intake.ingestAndRequest(EventTopics.connectLinked, { ...customerSubmission(), payload: { timestamp: NOW, customerId: 'cus-1' } as never }, RpcTopics.graphConnect, {
      customerId: 'cus-1',
      depth: 20,
      nowMs: NOW,
    });
    expect(isDegraded(answer) && answer.degraded).toMatchObject({ class: 'degraded', msg: expect.stringContaining('the graph did not answer') });
    expect(log.events.map((event) => event.topic)).toEqual([EventTopics.connectLinked]);
    await bus.stop();
  });

  describe('a customer over its limit (ADR-0001: fail closed)', () => {
    const oneEventAMinute = loadConfig({ RPC_TIMEOUT_MS: '50', CUSTOMER_RATE_LIMIT_PER_MINUTE: '1' }, { port: 8443 });
    const allowingAccount = { ...principal, account: { ...principal.account, settings: { defaultAction: 'ALLOW' as const } } };
    const submission = () => ({ ...customerSubmission(), principal: allowingAccount });

    it("answers REVIEW with source RATE_LIMIT after an ALLOW, not the account's default ALLOW, keeps the data and publishes that decision", async () => {
      const { intake, log, bus, asked } = await setup('ok', oneEventAMinute);
      expect(await intake.checkpoint(CheckpointRoutes.customer, submission())).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });

      const limited = await intake.checkpoint(CheckpointRoutes.customer, submission());

      expect(limited).toMatchObject({ customerId: 'cus-1', action: 'REVIEW', source: 'RATE_LIMIT', score: 0 });
      expect(asked).toEqual([RpcTopics.customerCheckpoint]);
      expect(log.events.map((event) => event.topic)).toEqual([EventTopics.customerUpdated, EventTopics.customerScored, EventTopics.customerUpdated, EventTopics.customerScored]);
      expect(log.events[3].envelope.payload).toMatchObject({ recommendation: limited });
      await bus.stop();
    });

    it('answers PREVENT when the last scored answer was PREVENT, and other customers are still scored', async () => {
      const { intake, bus } = await setup('prevent', oneEventAMinute);
      await intake.checkpoint(CheckpointRoutes.customer, submission());

      expect(await intake.checkpoint(CheckpointRoutes.customer, submission())).toMatchObject({ action: 'PREVENT', source: 'RATE_LIMIT' });
      expect(await intake.checkpoint(CheckpointRoutes.customer, { ...submission(), subjectId: 'cus-2' })).toMatchObject({ action: 'PREVENT', source: 'RINGFENCE', score: 7 });
      await bus.stop();
    });
  });
});
