import type { WireObject } from './payload-values';

/**
 * What a validated payload names, read once (`payloadFacts`). Every string is a named text
 * (`namedText`: never empty or only white space) kept as sent; every `fields` is the object as
 * the client sent it, for the records that keep it whole (its id included).
 */

/** A customer or supplier object: its own id, contact and tags. */
export interface PartyFacts {
  /** `customerId` of a customer object, `supplierId` of a supplier's. */
  id?: string;
  email?: string;
  telephone?: string;
  telephoneCountry?: string;
  /** Its `tags` whose values are booleans (the only ones that mean something). */
  tags: Readonly<Record<string, boolean>>;
  fields: WireObject;
}

/** The device a payload was sent from: `deviceId`, else `device.deviceId`, and the device object. */
export interface DeviceFacts {
  id?: string;
  ipAddress?: string;
  userAgent?: string;
  /** The `device` object; absent when the payload sent none (a bare `deviceId` included). */
  fields?: WireObject;
}

/** A payment method (a PSP card, a payout or refund method, a connect card). */
export interface PaymentMethodFacts {
  methodType?: string;
  instrumentId?: string;
  paymentMethodId?: string;
  countryIssued?: string;
  fields: WireObject;
}

export interface OrderFacts {
  id?: string;
  email?: string;
  telephone?: string;
  telephoneCountry?: string;
  price?: number;
  currency?: string;
  creationTimeMs?: number;
  /** `suppliers[].supplierId`, in order, each named one. */
  supplierIds: readonly string[];
  fields: WireObject;
}

export interface TransactionFacts {
  id?: string;
  /** The merchant: `mid`. */
  merchantId?: string;
  type?: string;
  success?: boolean;
  declineCode?: string;
  amount?: number;
  currency?: string;
  fields: WireObject;
}

export interface RefundFacts {
  id?: string;
  amount?: number;
  /** The refund's own currency (`PayloadFacts.money` falls back to the order's). */
  currency?: string;
  fields: WireObject;
}

export interface PayoutFacts {
  id?: string;
  /** `earnings.totalNetAmount` and `earnings.currency`. */
  amount?: number;
  currency?: string;
  notificationEmail?: string;
  fields: WireObject;
}

/** A registration attempt: the id the gateway assigned and the `registration` object. */
export interface RegistrationFacts {
  id?: string;
  success?: boolean;
  /** The `registration` object, kept whole and never read for identities (it may hold a password hash). */
  fields?: WireObject;
}

/** A PSP dispute (`disputeId`) or a connect chargeback (`chargebackId`); `fields` is its state. */
export interface DisputeFacts {
  id?: string;
  transactionId?: string;
  fields: WireObject;
}

export interface VoucherFacts {
  code?: string;
  referrerId?: string;
  fields: WireObject;
}

export interface VoucherRedemptionFacts {
  code?: string;
  voucherType?: string;
  paymentMethodId?: string;
  redemptionTimeMs?: number;
  success?: boolean;
  value?: number;
  currency?: string;
  fields: WireObject;
}

/** One document of `nationalIdentifications` (each item maps a document kind to a document). */
export interface IdentificationFacts {
  documentKind: string;
  idNumber?: string;
  /** Qualifiers, kept as sent (`sentText`): they are part of stored identities. */
  jurisdictionCountry?: string;
  jurisdictionState?: string;
}

export interface VehicleFacts {
  vin?: string;
  plate?: string;
  jurisdictionCountry?: string;
  jurisdictionState?: string;
}

export interface CustomNodeFacts {
  nodeType?: string;
  nodeId?: string;
  fields: WireObject;
}

/** An amount in minor units, and its currency when the payload names one. */
export interface PayloadMoney {
  minorUnits: number;
  currency?: string;
}

export interface PayloadFacts {
  /** The payload as sent, for records and rule contexts that keep it whole. */
  wire: WireObject;
  /** `timestamp`, epoch ms; absent when it is not a finite number. */
  timestampMs?: number;
  /** The payload's customer: `customerId` (connect, voucher redemption), else `customer.customerId`. */
  customerId?: string;
  customer?: PartyFacts;
  supplier?: PartyFacts;
  device: DeviceFacts;
  /** `paymentMethod`: a PSP transaction's card, a payout's method. */
  paymentMethod?: PaymentMethodFacts;
  /** `paymentMethods` (payout's deprecated array, refund's methods). */
  paymentMethods: readonly PaymentMethodFacts[];
  /** The cards of connect's `paymentMethods[].card`. */
  connectCards: readonly PaymentMethodFacts[];
  order?: OrderFacts;
  transaction?: TransactionFacts;
  /** A refund's `transactions`. */
  transactions: readonly TransactionFacts[];
  /** The merchant: `transaction.mid`, else the first refund transaction's `mid`. */
  merchantId?: string;
  /**
   * The payload's money: a transaction's amount; a refund's (in its order's currency when it
   * names none); a payout's net earnings; a redemption's value. Absent without an amount.
   */
  money?: PayloadMoney;
  refund?: RefundFacts;
  payout?: PayoutFacts;
  registration: RegistrationFacts;
  dispute?: DisputeFacts;
  chargeback?: DisputeFacts;
  voucher?: VoucherFacts;
  voucherRedemption?: VoucherRedemptionFacts;
  identifications: readonly IdentificationFacts[];
  vehicles: readonly VehicleFacts[];
  /** `customNode` and `customNodes`, in that order. */
  customNodes: readonly CustomNodeFacts[];
}
