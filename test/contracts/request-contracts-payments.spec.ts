import {
  PayoutRequestDto,
  PspTransactionRequestDto,
  RefundRequestDto,
  TransactionUpdatedEvent,
} from '@ringfence/contracts';
import { validateInput } from '@ringfence/service-runtime';
import { type ContractFixture, loadFixtures } from './fixture-loader';
import { PAYMENT_SIDE_ENDPOINTS } from './endpoint-classes';
import { describeFixtureContracts, fixtureValidator } from './fixture-validation';

/**
 * Golden request fixtures of the payment-side endpoints (PSP transaction and dispute, payout,
 * refund), validated the way the gateway does: body and query with `validateInput`, query
 * problems first (as `ValidBodyAndQuery` reports them).
 */
const ENDPOINTS = PAYMENT_SIDE_ENDPOINTS;

const validateRequest = fixtureValidator(ENDPOINTS);

describeFixtureContracts('request contracts: payment-side endpoints', ENDPOINTS);

describe('request contracts: what payment-side validation hands on', () => {
  const fixture = (slug: string, name: string) => {
    const found = loadFixtures(slug).valid.find((candidate) => candidate.name === `${slug}/valid/${name}`);
    if (!found) throw new Error(`no fixture ${slug}/valid/${name}`);
    return found;
  };
  const accepted = async (slug: string, request: Pick<ContractFixture, 'body' | 'query'>) => {
    const outcome = await validateRequest(slug, request);
    if (!outcome.ok) throw new Error(outcome.problems.join('; '));
    return outcome;
  };
  const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

  it('hands a full PSP transaction on unchanged, with its checkpoint', async () => {
    const request = fixture('psp-transaction', 'full');
    const { body, query } = await accepted('psp-transaction', request);
    expect(wire(body)).toEqual(request.body);
    expect(query).toEqual({ checkpoint: 'pspBeforeAuth' });
  });

  it('keeps the open PSP objects and the customer\'s further fields exactly as sent', async () => {
    const request = fixture('psp-transaction', 'open-objects-kept');
    const { body } = await accepted('psp-transaction', request);
    const transaction = body as PspTransactionRequestDto;
    expect(transaction.customer!.customerId).toBe('cus-61213');
    // Validated in place: the further fields stay where the client put them.
    expect(transaction.customer).toMatchObject({ loyaltyTier: 'gold', dateOfBirth: '1815-12-10', addresses: [{ city: 'London' }] });
    expect(wire(body)).toEqual(request.body);
  });

  it('drops unknown fields of the declared PSP objects', async () => {
    const { body } = await accepted('psp-transaction', fixture('psp-transaction', 'unknown-fields-ignored'));
    expect(wire(body)).toEqual({ timestamp: 1763800000000, transaction: { transactionId: 'tx-0004' }, device: { deviceId: 'dev-1' }, threeds: {} });
  });

  it('validates a card as a CardPaymentMethodDto, which drops unknown fields', async () => {
    const card = { methodType: 'card', paymentMethodId: 'pm-1', expiryMonth: 3, cvv: '123' };
    const { body } = await accepted('payout', { body: { timestamp: 1, payout: { payoutId: 'p' }, supplier: { supplierId: 's' }, paymentMethod: card } });
    const { paymentMethod } = body as PayoutRequestDto;
    expect(wire(paymentMethod)).toEqual({ methodType: 'card', paymentMethodId: 'pm-1', expiryMonth: 3 });
  });

  it('keeps every field of a variant the specification does not show', async () => {
    const request = fixture('payout', 'bank-account');
    const { body } = await accepted('payout', request);
    const { paymentMethod } = body as PayoutRequestDto;
    expect(paymentMethod).toMatchObject({ methodType: 'bankAccount', paymentMethodId: 'pm-bank-2201', sortCode: '040004' });
    expect(wire(paymentMethod)).toEqual((request.body as { paymentMethod: unknown }).paymentMethod);
  });

  it('hands the deprecated paymentMethods array on as variants, in order', async () => {
    const request = fixture('payout', 'deprecated-payment-methods');
    const { body } = await accepted('payout', request);
    const methods = (body as PayoutRequestDto).paymentMethods!;
    expect(wire(methods)).toEqual((request.body as { paymentMethods: unknown }).paymentMethods);
    // Each item as its variant: the card drops a field it does not declare, the open variants keep it.
    const sent = (request.body as { paymentMethods: object[] }).paymentMethods.map((method) => ({ ...method, note: 'x' }));
    const again = await accepted('payout', { body: { ...(request.body as object), paymentMethods: sent } });
    expect((again.body as PayoutRequestDto).paymentMethods!.map((method) => 'note' in method)).toEqual([false, true, true, true]);
  });

  it('validates an already validated request (the in-process bus hands instances on) to the same result', async () => {
    for (const [slug, name] of [['payout', 'deprecated-payment-methods'], ['refund', 'full'], ['psp-transaction', 'open-objects-kept']] as const) {
      const request = fixture(slug, name);
      const first = await accepted(slug, request);
      const again = await accepted(slug, { body: first.body });
      expect(wire(again.body)).toEqual(request.body);
      expect(again.body).toEqual(first.body);
    }
  });

  it('validates the transaction event built from a validated request, keeping the open fields', async () => {
    const request = fixture('psp-transaction', 'open-objects-kept');
    const { body } = await accepted('psp-transaction', request);
    const event = validateInput(TransactionUpdatedEvent, { ...body, checkpoint: 'pspAfterAuth' }, 'payload');
    expect(event.ok ? wire(event.value) : event.problems).toEqual({ ...(request.body as object), checkpoint: 'pspAfterAuth' });
  });

  it('hands a refund with ticket items on unchanged', async () => {
    const request = fixture('refund', 'full');
    const { body } = await accepted('refund', request);
    expect(wire(body)).toEqual(request.body);
    expect((body as RefundRequestDto).refund.items![0]!.eventTicket!.event!.venue!.name).toBe('O2 Academy Brixton');
  });
});
