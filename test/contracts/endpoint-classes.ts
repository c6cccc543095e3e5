import {
  ConnectQueryDto,
  ConnectRequestDto,
  CustomerRequestDto,
  PayoutRequestDto,
  PspDisputeRequestDto,
  PspTransactionQueryDto,
  PspTransactionRequestDto,
  RefundRequestDto,
  RegistrationRequestDto,
  SupplierRequestDto,
  VoucherCheckRequestDto,
  VoucherRedemptionQueryDto,
  VoucherRedemptionRequestDto,
  VoucherRequestDto,
} from '@ringfence/contracts';
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
