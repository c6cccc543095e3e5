import { GATEWAYS, PRIMARY_GATEWAY } from '../catalogue';
import type { Address, Card, CustomerAccount, OrderRecord, SimDevice } from '../entities';
import { type Body, pspDevice } from './party-payloads';

/** The payment processor's bodies (`/psp/transaction`, disputes) for a simulated order. */

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

