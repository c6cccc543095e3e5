/** How each fact is read from a payload's JSON (`PayloadFactsReading` reads each at most once). */
import type {
  CustomNodeFacts,
  DeviceFacts,
  DisputeFacts,
  IdentificationFacts,
  OrderFacts,
  PartyFacts,
  PayloadMoney,
  PaymentMethodFacts,
  PayoutFacts,
  RefundFacts,
  RegistrationFacts,
  TransactionFacts,
  VehicleFacts,
  VoucherFacts,
  VoucherRedemptionFacts,
} from './payload-facts.types';
import { type WireObject, booleanOf, finiteNumber, namedText, objectOf, objectsOf, sentText } from './payload-values';

const NO_TAGS: Readonly<Record<string, boolean>> = Object.freeze({});

/** A customer or supplier object; its tags are read only by a reader that asks for them (the graph). */
class PartyReading implements PartyFacts {
  readonly id: string | undefined;
  readonly email: string | undefined;
  readonly telephone: string | undefined;
  readonly telephoneCountry: string | undefined;
  private tagsRead: Readonly<Record<string, boolean>> | undefined;

  constructor(
    readonly fields: WireObject,
    idField: 'customerId' | 'supplierId',
  ) {
    this.id = namedText(fields[idField]);
    this.email = namedText(fields.email);
    this.telephone = namedText(fields.telephone);
    this.telephoneCountry = namedText(fields.telephoneCountry);
  }

  get tags(): Readonly<Record<string, boolean>> {
    if (this.tagsRead === undefined) {
      const booleans = Object.entries(objectOf(this.fields.tags) ?? {}).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean');
      this.tagsRead = booleans.length === 0 ? NO_TAGS : Object.fromEntries(booleans);
    }
    return this.tagsRead;
  }
}

export function partyOf(value: unknown, idField: 'customerId' | 'supplierId'): PartyFacts | undefined {
  const fields = objectOf(value);
  return fields && new PartyReading(fields, idField);
}

export function deviceOf(payload: WireObject): DeviceFacts {
  const fields = objectOf(payload.device);
  return {
    id: namedText(payload.deviceId) ?? namedText(fields?.deviceId),
    ipAddress: namedText(fields?.ipAddress),
    userAgent: namedText(fields?.userAgent),
    fields,
  };
}

export function paymentMethodOf(fields: WireObject): PaymentMethodFacts {
  return {
    methodType: namedText(fields.methodType),
    instrumentId: namedText(fields.instrumentId),
    paymentMethodId: namedText(fields.paymentMethodId),
    countryIssued: namedText(fields.countryIssued),
    fields,
  };
}

export function orderOf(value: unknown): OrderFacts | undefined {
  const fields = objectOf(value);
  if (fields === undefined) return undefined;
  return {
    id: namedText(fields.orderId),
    email: namedText(fields.email),
    telephone: namedText(fields.telephone),
    telephoneCountry: namedText(fields.telephoneCountry),
    price: finiteNumber(fields.price),
    currency: namedText(fields.currency),
    creationTimeMs: finiteNumber(fields.creationTime),
    supplierIds: objectsOf(fields.suppliers).map((supplier) => namedText(supplier.supplierId)).filter((id) => id !== undefined),
    fields,
  };
}

export function transactionOf(fields: WireObject): TransactionFacts {
  return {
    id: namedText(fields.transactionId),
    merchantId: namedText(fields.mid),
    type: namedText(fields.type),
    success: booleanOf(fields.success),
    declineCode: namedText(fields.declineCode),
    amount: finiteNumber(fields.amount),
    currency: namedText(fields.currency),
    fields,
  };
}

export function disputeOf(value: unknown, idField: 'disputeId' | 'chargebackId'): DisputeFacts | undefined {
  const fields = objectOf(value);
  return fields && { id: namedText(fields[idField]), transactionId: namedText(fields.transactionId), fields };
}

export function voucherRedemptionOf(value: unknown): VoucherRedemptionFacts | undefined {
  const fields = objectOf(value);
  if (fields === undefined) return undefined;
  return {
    code: namedText(fields.voucherCode),
    voucherType: namedText(fields.voucherType),
    paymentMethodId: namedText(fields.paymentMethodId),
    redemptionTimeMs: finiteNumber(fields.redemptionTime),
    success: booleanOf(fields.success),
    value: finiteNumber(fields.value),
    currency: namedText(fields.currency),
    fields,
  };
}

export function registrationOf(payload: WireObject): RegistrationFacts {
  const fields = objectOf(payload.registration);
  return { id: namedText(payload.registrationId), success: booleanOf(fields?.success), fields };
}

export function identificationsOf(value: unknown): IdentificationFacts[] {
  return objectsOf(value).flatMap((item) =>
    Object.entries(item).flatMap(([documentKind, document]) => {
      const fields = objectOf(document);
      if (fields === undefined) return [];
      const { idNumber, jurisdictionCountry, jurisdictionState } = fields;
      return [{ documentKind, idNumber: namedText(idNumber), jurisdictionCountry: sentText(jurisdictionCountry), jurisdictionState: sentText(jurisdictionState) }];
    }),
  );
}

export function vehiclesOf(value: unknown): VehicleFacts[] {
  return objectsOf(value).map((vehicle) => ({
    vin: namedText(vehicle.vin),
    plate: namedText(vehicle.plate),
    jurisdictionCountry: sentText(vehicle.jurisdictionCountry),
    jurisdictionState: sentText(vehicle.jurisdictionState),
  }));
}

export function customNodesOf(payload: WireObject): CustomNodeFacts[] {
  return [...objectsOf([payload.customNode]), ...objectsOf(payload.customNodes)].map((fields) => ({
    nodeType: namedText(fields.nodeType),
    nodeId: namedText(fields.nodeId),
    fields,
  }));
}

export const moneyOf = (minorUnits: number | undefined, currency: string | undefined): PayloadMoney | undefined =>
  minorUnits === undefined ? undefined : { minorUnits, currency };

export function refundOf(value: unknown): RefundFacts | undefined {
  const fields = objectOf(value);
  return fields && { id: namedText(fields.refundId), amount: finiteNumber(fields.amount), currency: namedText(fields.currency), fields };
}

export function payoutOf(value: unknown): PayoutFacts | undefined {
  const fields = objectOf(value);
  if (fields === undefined) return undefined;
  const earnings = objectOf(fields.earnings);
  return { id: namedText(fields.payoutId), amount: finiteNumber(earnings?.totalNetAmount), currency: namedText(earnings?.currency), notificationEmail: namedText(fields.notificationEmail), fields };
}

export function voucherOf(value: unknown): VoucherFacts | undefined {
  const fields = objectOf(value);
  return fields && { code: namedText(fields.voucherCode), referrerId: namedText(fields.referrerId), fields };
}

