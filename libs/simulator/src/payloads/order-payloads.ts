import type { CustomerAccount, OrderRecord, SupplierAccount } from '../entities';
import { type Body, cardPaymentMethod, location, supplier, v2Device } from './party-payloads';
import type { PaymentDetails } from './psp-payloads';

/** The marketplace's bodies around orders: refunds, payouts, vouchers and analysts' labels. */

function orderBody(order: OrderRecord, account: CustomerAccount): Body {
  return {
    orderId: order.orderId,
    creationTime: order.creationTime,
    app: { name: 'ringfence-market', platform: 'web', domain: 'market.ringfence.example' },
    status: { stage: 'fulfilled', actor: 'merchant' },
    price: order.amountMinor,
    currency: order.currency,
    country: account.market.country,
    market: account.market.country.toLowerCase(),
    marketCity: order.shipTo.city.toLowerCase(),
    category: order.category.category,
    to: location(order.shipTo),
    items: order.items.map((item) => ({ ...item, currency: order.currency, category: order.category.category })),
    email: account.email,
    telephone: account.telephone,
    telephoneCountry: account.market.country,
    ...(order.supplierId
      ? {
          suppliers: [
            {
              supplierId: order.supplierId,
              status: { stage: 'fulfilled', timestamp: order.creationTime + 45 * 60_000 },
              fee: order.supplierFeeMinor,
              currency: order.currency,
              type: order.supplierType,
            },
          ],
        }
      : {}),
  };
}

export function refundRequest(
  time: number,
  details: PaymentDetails,
  refund: { refundId: string; refundTransactionId: string; amountMinor: number; reason: string },
): Body {
  const { order, account, device, ipAddress } = details;
  return {
    timestamp: time,
    eventType: 'refund-requested',
    customer: {
      customerId: account.customerId,
      registrationTime: account.registrationTime,
      email: account.email,
      name: `${account.givenName} ${account.familyName}`,
      givenName: account.givenName,
      familyName: account.familyName,
      telephone: account.telephone,
      telephoneCountry: account.market.country,
    },
    refund: {
      refundId: refund.refundId,
      status: 'OPEN',
      refundRequestTime: time,
      amount: refund.amountMinor,
      currency: order.currency,
      nonRefundableAmount: 0,
      items: order.items.map((item) => ({ ...item, currency: order.currency, category: order.category.category })),
    },
    order: orderBody(order, account),
    paymentMethods: [cardPaymentMethod(order.card)],
    transactions: [
      {
        transactionId: refund.refundTransactionId,
        time,
        amount: refund.amountMinor,
        currency: order.currency,
        type: 'refund',
        paymentMethodId: order.card.paymentMethodId,
        gateway: order.gateway,
        success: true,
        mcc: order.category.mcc,
        mid: order.category.mid,
      },
    ],
    device: v2Device(device, ipAddress, account.market.country),
  };
}

export function payoutRequest(time: number, account: SupplierAccount, payout: { payoutId: string; grossMinor: number; schedule: string; initiatedBy: string; notificationEmail: string }): Body {
  const fee = Math.round(payout.grossMinor * 0.02);
  return {
    timestamp: time,
    eventType: 'payout-requested',
    payout: {
      payoutId: payout.payoutId,
      status: 'CREATED',
      earnings: {
        currency: account.market.currency,
        totalGrossAmount: payout.grossMinor,
        baseAmount: payout.grossMinor,
        compensationAmount: 0,
        bonusAmount: 0,
        withheldTaxAmount: 0,
        onPlatformRevenue: payout.grossMinor,
        totalNetAmount: payout.grossMinor - fee,
        feeAmount: fee,
      },
      revenueSource: { ads: 0, referral: 0, promo: 0, subscriptions: 0, purchase: payout.grossMinor, others: 0 },
      periodStart: account.periodStart,
      periodEnd: time,
      creationTime: time,
      payoutTime: time + 24 * 3_600_000,
      schedule: payout.schedule,
      initiatedBy: payout.initiatedBy,
      notificationEmail: payout.notificationEmail,
    },
    supplier: supplier(account),
    paymentMethod: cardPaymentMethod(account.payoutCard),
  };
}

export function voucherRequest(time: number, voucher: { code: string; type: string; value: number; currency: string; expiry: number; referrerId?: string; referralValue?: number; campaign?: string }): Body {
  return {
    timestamp: time,
    eventType: 'voucher-created',
    voucher: {
      voucherCode: voucher.code,
      ...(voucher.referrerId ? { referrerId: voucher.referrerId } : {}),
      expiry: voucher.expiry,
      value: voucher.value,
      currency: voucher.currency,
      voucherType: voucher.type,
      ...(voucher.referralValue === undefined ? {} : { referralValue: voucher.referralValue }),
      creationTime: time,
      ...(voucher.campaign ? { custom: { campaign: voucher.campaign } } : {}),
    },
  };
}

export function voucherRedemptionRequest(time: number, account: CustomerAccount, redemption: { code: string; type: string; value: number; currency: string; paymentMethodId: string }): Body {
  return {
    timestamp: time,
    eventType: 'checkout',
    customerId: account.customerId,
    voucherRedemption: {
      voucherCode: redemption.code,
      paymentMethodId: redemption.paymentMethodId,
      redemptionTime: time,
      success: true,
      value: redemption.value,
      currency: redemption.currency,
      voucherType: redemption.type,
    },
  };
}

export const ANALYSTS = [
  { name: 'Priya Raman', email: 'priya.raman@ringfence-market.example' },
  { name: 'Tom Hughes', email: 'tom.hughes@ringfence-market.example' },
  { name: 'Léa Martin', email: 'lea.martin@ringfence-market.example' },
] as const;

export function labelBody(category: string, review: string, reviewer: { name: string; email: string }, comment: string): Body {
  return { category, review, reviewer: { ...reviewer }, comment };
}
