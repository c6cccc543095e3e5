import type { INestMicroservice } from '@nestjs/common';
import type { MessageBus, RespondOptions } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { MAX_PAYMENT_REVIEWS_PER_READ, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { CASE_REPOSITORY, type CaseRepository, type CaseTenant, type PaymentReview } from '@ringfence/labels';
import { PaymentReviewsOfHandler } from './payment-reviews-of.handler';

type Handler = (message: MessageEnvelope<unknown>) => Promise<unknown>;

const running: INestMicroservice[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((microservice) => microservice.close()));
});

const review = (transactionId: string, decision: PaymentReview['decision'], at: number): PaymentReview => ({ transactionId, customerId: 'cus-1', decision, actor: 'ana@shop.example', at, comment: null });

/** The handler on a recording bus, over a repository holding `stored` as each tenant's current reviews. */
async function setup(stored: Record<string, PaymentReview[]>) {
  const responders = new Map<string, { options: RespondOptions; handler: Handler }>();
  const bus = { handle: (topic: string, options: RespondOptions, handler: Handler) => responders.set(topic, { options, handler }), start: async () => undefined, stop: async () => undefined } as unknown as MessageBus;
  const asked: Array<{ tenant: CaseTenant; transactionIds: readonly string[] }> = [];
  const repository = {
    currentPaymentReviews: async (tenant: CaseTenant, transactionIds: readonly string[]) => {
      asked.push({ tenant, transactionIds });
      return (stored[`${tenant.accountId}:${tenant.environment}`] ?? []).filter((entry) => transactionIds.includes(entry.transactionId));
    },
  } as unknown as CaseRepository;
  running.push(await startBusControllers(bus, { controllers: [PaymentReviewsOfHandler], providers: [{ provide: CASE_REPOSITORY, useValue: repository }] }));
  const ask = (payload: unknown, accountId = 'acc_1') => responders.get(RpcTopics.readPaymentReviewsOf)!.handler({ eventId: 'evt-1', accountId, environment: 'live', subjectId: 's', acceptedAt: 1, traceId: 't', payload });
  return { responders, asked, ask };
}

describe(PaymentReviewsOfHandler.name, () => {
  it("answers each payment's current review in the order asked, null for one without, from the envelope's tenant in one read", async () => {
    const { ask, asked } = await setup({ 'acc_1:live': [review('tx-2', 'not_fraud', 20), review('tx-1', 'fraud', 10)], 'acc_2:live': [review('tx-3', 'fraud', 30)] });

    await expect(ask({ transactionIds: ['tx-1', 'tx-3', 'tx-2'] })).resolves.toEqual({
      reviews: [{ decision: 'fraud', actor: 'ana@shop.example', at: 10, comment: null }, null, { decision: 'not_fraud', actor: 'ana@shop.example', at: 20, comment: null }],
    });
    expect(asked).toEqual([{ tenant: { accountId: 'acc_1', environment: 'live' }, transactionIds: ['tx-1', 'tx-3', 'tx-2'] }]);
  });

  it('needs no read barrier (reviews are stored by the request that makes them), and refuses a read of too many payments', async () => {
    const { responders, ask } = await setup({});

    expect(responders.get(RpcTopics.readPaymentReviewsOf)!.options).toEqual({ group: 'labelling' });
    const tooMany = Array.from({ length: MAX_PAYMENT_REVIEWS_PER_READ + 1 }, (_, index) => `tx-${index}`);
    await expect(ask({ transactionIds: tooMany })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(ask({ transactionIds: [''] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
