import {
  BreachedCredentialsImportRequestDto,
  ClientEventsRequestDto,
  ConnectQueryDto,
  ConnectRequestDto,
  CredentialsCheckRequestDto,
  CustomerLabelRequestDto,
  CustomerRequestDto,
  LookupAddRequestDto,
  LookupDeleteQueryDto,
  LookupReadQueryDto,
  PayoutRequestDto,
  PspDisputeRequestDto,
  PspTransactionQueryDto,
  PspTransactionRequestDto,
  RefundRequestDto,
  RegistrationRequestDto,
  SupplierLabelRequestDto,
  SupplierRequestDto,
  VoucherCheckRequestDto,
  VoucherRedemptionQueryDto,
  VoucherRedemptionRequestDto,
  VoucherRequestDto,
} from '@ringfence/contracts';
import type { InputClass } from '@ringfence/service-runtime';
import type { EndpointClasses } from './fixture-validation';

/** The classes the gateway validates each customer-side fixture slug's body and query with. */
export const CUSTOMER_SIDE_ENDPOINTS: EndpointClasses = {
  connect: { body: ConnectRequestDto, query: ConnectQueryDto },
  customer: { body: CustomerRequestDto },
  supplier: { body: SupplierRequestDto },
  registration: { body: RegistrationRequestDto },
  'voucher-redemption': { body: VoucherRedemptionRequestDto, query: VoucherRedemptionQueryDto },
  voucher: { body: VoucherRequestDto },
  'voucher-check': { body: VoucherCheckRequestDto },
};

/** The same for the payment-side slugs (PSP transaction and dispute, payout, refund). */
export const PAYMENT_SIDE_ENDPOINTS: EndpointClasses = {
  'psp-transaction': { body: PspTransactionRequestDto, query: PspTransactionQueryDto },
  'psp-dispute': { body: PspDisputeRequestDto },
  payout: { body: PayoutRequestDto },
  refund: { body: RefundRequestDto },
};

/** Every fixture slug's classes: both sides, labels, lookups and the client SDKs' events (one entry per folder of fixtures/). */
export const ALL_ENDPOINTS: Record<string, { body?: InputClass<object>; query?: InputClass<object> }> = {
  ...CUSTOMER_SIDE_ENDPOINTS,
  ...PAYMENT_SIDE_ENDPOINTS,
  'label-customer': { body: CustomerLabelRequestDto },
  'label-supplier': { body: SupplierLabelRequestDto },
  'lookup-add': { body: LookupAddRequestDto },
  'lookup-read': { query: LookupReadQueryDto },
  'lookup-delete': { query: LookupDeleteQueryDto },
  'lookup-credentials-check': { body: CredentialsCheckRequestDto },
  'lookup-credentials-import': { body: BreachedCredentialsImportRequestDto },
  'client-events': { body: ClientEventsRequestDto },
};
