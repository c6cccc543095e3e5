import { ClientEventsRequestDto, CustomerLabelRequestDto, LABEL_REVIEWS_BY_CATEGORY, SupplierLabelRequestDto } from '@ringfence/contracts';
import { TrafficSimulation } from '@ringfence/simulator';
import { CUSTOMER_SIDE_ENDPOINTS, PAYMENT_SIDE_ENDPOINTS } from './endpoint-classes';
import { type EndpointClasses, fixtureValidator } from './fixture-validation';

/** The gateway's classes per path (the fixtures' table, keyed by path): generated bodies are checked with the contract tests' validation. */
const ENDPOINTS: EndpointClasses = {
  '/psp/transaction': PAYMENT_SIDE_ENDPOINTS['psp-transaction'],
  '/psp/dispute': PAYMENT_SIDE_ENDPOINTS['psp-dispute'],
  '/v2/registration': CUSTOMER_SIDE_ENDPOINTS.registration,
  '/v2/customer': CUSTOMER_SIDE_ENDPOINTS.customer,
  '/v2/supplier': CUSTOMER_SIDE_ENDPOINTS.supplier,
  '/v2/payout': PAYMENT_SIDE_ENDPOINTS.payout,
  '/v2/refund': PAYMENT_SIDE_ENDPOINTS.refund,
  '/v2/voucher': CUSTOMER_SIDE_ENDPOINTS.voucher,
  '/v2/paymentmethod/voucher': CUSTOMER_SIDE_ENDPOINTS['voucher-redemption'],
  '/v2/client/events': { body: ClientEventsRequestDto },
  customerLabel: { body: CustomerLabelRequestDto },
  supplierLabel: { body: SupplierLabelRequestDto },
};
const validate = fixtureValidator(ENDPOINTS);
const endpointOf = (path: string) => (/^\/v2\/customer\/[^/]+\/labels$/.test(path) ? 'customerLabel' : /^\/v2\/supplier\/[^/]+\/labels$/.test(path) ? 'supplierLabel' : path);

/** libs/simulator's traffic is what the API takes: every body and query valid, on every path it uses. */
describe('simulated traffic (libs/simulator) against the contracts', () => {
  it('generates bodies the API accepts, on every path it uses', async () => {
    const records = [...new TrafficSimulation({ seed: 'valid', customers: 400, days: 10, fraudRate: 0.25, settleDays: 60 }).records()];
    const problems: string[] = [];
    for (const record of records) {
      const outcome = await validate(endpointOf(record.path), { body: record.body, query: record.query });
      if (!outcome.ok) problems.push(`${record.path}: ${outcome.problems.join('; ')}`);
      if (record.path.endsWith('/labels')) {
        const { category, review } = record.body as { category: string; review: string };
        expect((LABEL_REVIEWS_BY_CATEGORY as Record<string, readonly string[]>)[category]).toContain(review);
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(new Set(records.map((record) => endpointOf(record.path)))).toEqual(new Set(Object.keys(ENDPOINTS)));
  });
});
