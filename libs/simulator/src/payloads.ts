import { GATEWAYS, PRIMARY_GATEWAY } from './catalogue';
import type { Address, Card, CustomerAccount, OrderRecord, SimDevice, SupplierAccount } from './entities';

/**
 * Request bodies in the shapes of the interface specification (§2, §4), built from the
 * simulation's entities. Every field sent is one the API's DTOs declare; the unit tests validate
 * generated bodies with the gateway's own validation.
 */

export type Body = Record<string, unknown>;

export function v2Device(device: SimDevice, ipAddress: string, country: string): Body {
  const { profile } = device;
  return {
    deviceId: device.deviceId,
    ipAddress,
    language: device.language,
    userAgent: profile.userAgent,
    model: profile.model,
    os: profile.os,
    type: profile.type,
    manufacturer: profile.manufacturer,
    location: { country },
  };
}

export function pspDevice(device: SimDevice, ipAddress: string): Body {
  const { profile } = device;
  return {
    deviceId: device.deviceId,
    ipAddress,
    lang: device.language,
    manufacturer: profile.manufacturer,
    model: profile.model,
    os: profile.os,
    type: profile.type,
    userAgent: profile.userAgent,
  };
}

export function location(address: Address, addresseeName?: string): Body {
  return { ...address, ...(addresseeName ? { addresseeName } : {}) };
}

const fullName = (account: { givenName: string; familyName: string }) => `${account.givenName} ${account.familyName}`;

export function customer(account: CustomerAccount): Body {
  return {
    customerId: account.customerId,
    registrationTime: account.registrationTime,
    email: account.email,
    ...(account.emailVerifiedTime === undefined ? {} : { emailVerifiedTime: account.emailVerifiedTime }),
    name: fullName(account),
    givenName: account.givenName,
    familyName: account.familyName,
    telephone: account.telephone,
    ...(account.telephoneVerifiedTime === undefined ? {} : { telephoneVerifiedTime: account.telephoneVerifiedTime }),
    telephoneCountry: account.market.country,
    location: location(account.address, fullName(account)),
    accountType: 'REGISTERED',
  };
}

export function customerRequest(time: number, eventType: string, account: CustomerAccount, device?: SimDevice, ipAddress?: string): Body {
  return {
    timestamp: time,
    eventType,
    customer: customer(account),
    ...(device && ipAddress ? { device: v2Device(device, ipAddress, account.market.country) } : {}),
  };
}

export function registrationRequest(
  time: number,
  account: CustomerAccount,
  device: SimDevice,
  ipAddress: string,
  password: { hash: string; success: boolean },
  platform: string,
): Body {
  const success = password.success;
  return {
    timestamp: time,
    eventType: 'signup',
    registration: {
      app: { name: 'ringfence-market', platform, ...(platform === 'web' ? { domain: 'market.ringfence.example' } : {}) },
      username: account.email,
      registrationMechanism: { password: { passwordHashed: password.hash, success, ...(success ? {} : { failureReason: 'PASSWORD_TOO_SIMPLE' }) } },
      guestAccount: false,
      marketingEmailsEnabled: platform !== 'web',
      success,
    },
    ...(success
      ? {
          customer: {
            customerId: account.customerId,
            email: account.email,
            name: fullName(account),
            givenName: account.givenName,
            familyName: account.familyName,
            telephone: account.telephone,
            telephoneCountry: account.market.country,
          },
        }
      : {}),
    device: v2Device(device, ipAddress, account.market.country),
  };
}

export function supplier(account: SupplierAccount): Body {
  return {
    supplierId: account.supplierId,
    groupId: account.groupId,
    groupName: account.groupName,
    registrationTime: account.registrationTime,
    email: account.email,
    emailVerifiedTime: account.registrationTime + 600_000,
    name: account.name,
    telephone: account.telephone,
    telephoneVerifiedTime: account.registrationTime + 900_000,
    telephoneCountry: account.market.country,
    homeLocation: location(account.homeAddress),
    taxAddress: location(account.homeAddress, account.name),
    type: account.type,
    level: 'standard',
    employmentType: 'self-employed',
    ...(account.type === 'courier' ? { transportType: 'bicycle' } : {}),
    category: account.type === 'courier' ? 'delivery' : 'retail',
    accountType: 'INDIVIDUAL',
    accountPlatform: account.device.profile.os.startsWith('iOS') ? 'ios' : 'android',
    identityVerified: account.identityVerified,
  };
}

export function supplierRegistrationRequest(time: number, account: SupplierAccount, passwordHash: string): Body {
  return {
    timestamp: time,
    eventType: 'supplier-signup',
    registration: {
      app: { name: 'ringfence-partners', platform: 'android' },
      username: account.email,
      registrationMechanism: { password: { passwordHashed: passwordHash, success: true } },
      guestAccount: false,
      marketingEmailsEnabled: false,
      success: true,
    },
    supplier: {
      supplierId: account.supplierId,
      name: account.name,
      groupId: account.groupId,
      groupName: account.groupName,
      email: account.email,
      telephone: account.telephone,
      telephoneCountry: account.market.country,
      type: account.type,
      level: 'new',
    },
    device: v2Device(account.device, account.device.homeIp, account.market.country),
  };
}

export function supplierRequest(time: number, eventType: string, account: SupplierAccount): Body {
  return {
    timestamp: time,
    eventType,
    supplier: supplier(account),
    device: v2Device(account.device, account.device.homeIp, account.market.country),
  };
}

function cardPaymentMethod(card: Card, extra: Body = {}): Body {
  return {
    methodType: 'card',
    paymentMethodId: card.paymentMethodId,
    scheme: card.issuer.scheme,
    instrumentId: card.instrumentId,
    cardBin: card.issuer.bin,
    cardLastFour: card.lastFour,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    nameOnCard: card.nameOnCard,
    billingAddress: location(card.billingAddress),
    corporateCard: false,
    virtualCard: card.virtual ?? false,
    successfulRegistration: true,
    registrationTime: card.registrationTime,
    ...extra,
  };
}

export interface PaymentDetails {
  order: OrderRecord;
  account: CustomerAccount;
  device: SimDevice;
  ipAddress: string;
}

function pspPaymentMethod(card: Card): Body {
  return {
    methodType: 'card',
    instrumentId: card.instrumentId,
    iin: card.issuer.bin,
    lastFour: card.lastFour,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    scheme: card.issuer.scheme,
    issuer: card.issuer.issuer,
    countryIssued: card.issuer.country,
    nameOnCard: card.nameOnCard,
  };
}

function pspAddress(address: Address, addressee: string): Body {
  return { addressee, street1: address.street1, locality: address.city, region: address.region, postalCode: address.postalCode, country: address.country };
}

function gatewayOf(name: string) {
  return GATEWAYS.find((gateway) => gateway.gateway === name) ?? PRIMARY_GATEWAY;
}

function transactionBase(order: OrderRecord): Body {
  const gateway = gatewayOf(order.gateway);
  return {
    transactionId: order.transactionId,
    type: 'auth',
    amount: order.amountMinor,
    currency: order.currency,
    mcc: order.category.mcc,
    mid: order.category.mid,
    merchantName: order.category.merchantName,
    merchantCountryCode: 'GBR',
    gateway: gateway.gateway,
    acquirerId: gateway.acquirerId,
    acquirerBin: gateway.acquirerBin,
    acquirerCountryCode: gateway.acquirerCountryCode,
  };
}

/** The PSP transaction before authorisation (`?checkpoint=pspBeforeAuth`). */
export function pspBeforeAuth(time: number, { order, account, device, ipAddress }: PaymentDetails): Body {
  return {
    timestamp: time,
    transaction: { ...transactionBase(order), stepId: 'auth-1' },
    paymentMethod: pspPaymentMethod(order.card),
    device: pspDevice(device, ipAddress),
    customer: { customerId: account.customerId, email: account.email, telephone: account.telephone },
    billingAddress: pspAddress(order.card.billingAddress, order.card.nameOnCard),
    shippingAddress: pspAddress(order.shipTo, `${account.givenName} ${account.familyName}`),
  };
}

export interface AuthorisationOutcome {
  success: boolean;
  declineCode?: string;
  avs: { postalCode: string; street: string };
  cvv: string;
  threeds?: Body;
}

/** The same transaction after authorisation (`?checkpoint=pspAfterAuth`), with the processor's outcome. */
export function pspAfterAuth(time: number, details: PaymentDetails, outcome: AuthorisationOutcome): Body {
  const before = pspBeforeAuth(time, details);
  return {
    ...before,
    transaction: {
      ...(before.transaction as Body),
      success: outcome.success,
      partial: false,
      gatewayReference: details.order.gatewayReference,
      ...(outcome.declineCode ? { declineCode: outcome.declineCode } : {}),
      avsResultCode: outcome.avs,
      cvvResultCode: outcome.cvv,
    },
    ...(outcome.threeds ? { threeds: outcome.threeds } : {}),
  };
}

/** The capture of an authorised transaction: an update of the same transactionId, no checkpoint. */
export function pspCapture(time: number, order: OrderRecord): Body {
  return {
    timestamp: time,
    transaction: {
      ...transactionBase(order),
      stepId: 'capture-1',
      type: 'capture',
      success: true,
      gatewayReference: order.gatewayReference,
      arn: order.arn,
    },
  };
}

export function dispute(time: number, order: OrderRecord, disputeId: string, reason: string, disputeTime: number, outcome?: string, stage = 'CHARGEBACK'): Body {
  return {
    timestamp: time,
    dispute: {
      disputeId,
      transactionId: order.transactionId,
      amount: order.amountMinor,
      currency: order.currency,
      arn: order.arn,
      disputeTime,
      gateway: order.gateway,
      gatewayReference: `DSP-${order.gatewayReference.slice(-8)}`,
      liabilityShifted: order.liabilityShifted,
      reason,
      stage,
      ...(outcome ? { outcome } : {}),
    },
  };
}

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
