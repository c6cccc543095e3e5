import {
  CustomerLabelRequestDto,
  CustomerRequestDto,
  LABEL_REVIEWS_BY_CATEGORY,
  PayoutRequestDto,
  PspDisputeRequestDto,
  PspTransactionQueryDto,
  PspTransactionRequestDto,
  RefundRequestDto,
  RegistrationRequestDto,
  SupplierLabelRequestDto,
  SupplierRequestDto,
  VoucherRedemptionQueryDto,
  VoucherRedemptionRequestDto,
  VoucherRequestDto,
} from '@ringfence/contracts';
import { TrafficSimulation } from '@ringfence/simulator';
import { type EndpointClasses, fixtureValidator } from './fixture-validation';

/** The gateway's classes per path: generated bodies are checked with the contract tests' validation. */
const ENDPOINTS: EndpointClasses = {
  '/psp/transaction': { body: PspTransactionRequestDto, query: PspTransactionQueryDto },
  '/psp/dispute': { body: PspDisputeRequestDto },
  '/v2/registration': { body: RegistrationRequestDto },
  '/v2/customer': { body: CustomerRequestDto },
  '/v2/supplier': { body: SupplierRequestDto },
  '/v2/payout': { body: PayoutRequestDto },
  '/v2/refund': { body: RefundRequestDto },
  '/v2/voucher': { body: VoucherRequestDto },
  '/v2/paymentmethod/voucher': { body: VoucherRedemptionRequestDto, query: VoucherRedemptionQueryDto },
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
