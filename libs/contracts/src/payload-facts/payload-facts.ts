import type {
  CustomNodeFacts,
  DeviceFacts,
  DisputeFacts,
  IdentificationFacts,
  OrderFacts,
  PartyFacts,
  PayloadFacts,
  PayloadMoney,
  PaymentMethodFacts,
  RegistrationFacts,
  TransactionFacts,
  VehicleFacts,
  VoucherRedemptionFacts,
} from './payload-facts.types';
import { type WireObject, booleanOf, finiteNumber, namedText, objectOf, objectsOf, sentText } from './payload-values';

function partyOf(value: unknown, idField: 'customerId' | 'supplierId'): PartyFacts | undefined {
  const fields = objectOf(value);
  if (fields === undefined) return undefined;
  const tags = Object.entries(objectOf(fields.tags) ?? {}).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean');
  return {
    id: namedText(fields[idField]),
    email: namedText(fields.email),
    telephone: namedText(fields.telephone),
    telephoneCountry: namedText(fields.telephoneCountry),
    tags: Object.fromEntries(tags),
    fields,
  };
}

function deviceOf(payload: WireObject): DeviceFacts {
  const fields = objectOf(payload.device);
  return {
    id: namedText(payload.deviceId) ?? namedText(fields?.deviceId),
    ipAddress: namedText(fields?.ipAddress),
    userAgent: namedText(fields?.userAgent),
    fields,
  };
}

function paymentMethodOf(fields: WireObject): PaymentMethodFacts {
  return {
    methodType: namedText(fields.methodType),
    instrumentId: namedText(fields.instrumentId),
    paymentMethodId: namedText(fields.paymentMethodId),
    // PSP cards send `iin` and `lastFour`; v2 cards (connect, payout, refund) `cardBin` and `cardLastFour`.
    bin: namedText(fields.iin) ?? namedText(fields.cardBin),
    lastFour: namedText(fields.lastFour) ?? namedText(fields.cardLastFour),
    countryIssued: namedText(fields.countryIssued),
    fields,
  };
}

function orderOf(value: unknown): OrderFacts | undefined {
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

function transactionOf(fields: WireObject): TransactionFacts {
  return {
    id: namedText(fields.transactionId),
    merchantId: namedText(fields.mid),
    parentTransactionId: namedText(fields.parentTransactionId),
    type: namedText(fields.type),
    success: booleanOf(fields.success),
    declineCode: namedText(fields.declineCode),
    amount: finiteNumber(fields.amount),
    currency: namedText(fields.currency),
    fields,
  };
}

function disputeOf(value: unknown, idField: 'disputeId' | 'chargebackId'): DisputeFacts | undefined {
  const fields = objectOf(value);
  return fields && { id: namedText(fields[idField]), transactionId: namedText(fields.transactionId), fields };
}

function voucherRedemptionOf(value: unknown): VoucherRedemptionFacts | undefined {
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

/**
 * The `registration` object may hold a password hash: nothing in it is read until a reader asks
 * for its `success` (the graph never does).
 */
function registrationOf(payload: WireObject): RegistrationFacts {
  const fields = objectOf(payload.registration);
  return {
    id: namedText(payload.registrationId),
    get success() {
      return booleanOf(fields?.success);
    },
    fields,
  };
}

function identificationsOf(value: unknown): IdentificationFacts[] {
  return objectsOf(value).flatMap((item) =>
    Object.entries(item).flatMap(([documentKind, document]) => {
      const fields = objectOf(document);
      if (fields === undefined) return [];
      const { idNumber, jurisdictionCountry, jurisdictionState } = fields;
      return [{ documentKind, idNumber: namedText(idNumber), jurisdictionCountry: sentText(jurisdictionCountry), jurisdictionState: sentText(jurisdictionState) }];
    }),
  );
}

function vehiclesOf(value: unknown): VehicleFacts[] {
  return objectsOf(value).map((vehicle) => ({
    vin: namedText(vehicle.vin),
    plate: namedText(vehicle.plate),
    jurisdictionCountry: sentText(vehicle.jurisdictionCountry),
    jurisdictionState: sentText(vehicle.jurisdictionState),
  }));
}

function customNodesOf(payload: WireObject): CustomNodeFacts[] {
  return [...objectsOf([payload.customNode]), ...objectsOf(payload.customNodes)].map((fields) => ({
    nodeType: namedText(fields.nodeType),
    nodeId: namedText(fields.nodeId),
    fields,
  }));
}

const moneyOf = (minorUnits: number | undefined, currency: string | undefined): PayloadMoney | undefined =>
  minorUnits === undefined ? undefined : { minorUnits, currency };

/** The payload's money: at most one of these is sent by any one payload. */
function payloadMoney(facts: Omit<PayloadFacts, 'money'>): PayloadMoney | undefined {
  const { transaction, refund, payout, voucherRedemption, order } = facts;
  return (
    moneyOf(transaction?.amount, transaction?.currency) ??
    moneyOf(refund?.amount, refund?.currency ?? order?.currency) ??
    moneyOf(payout?.amount, payout?.currency) ??
    moneyOf(voucherRedemption?.value, voucherRedemption?.currency)
  );
}

/** The parts of a payload that carry money or name an occurrence (payment, refund, payout, voucher). */
function occurrencesOf(payload: WireObject) {
  const transactionFields = objectOf(payload.transaction);
  const transaction = transactionFields && transactionOf(transactionFields);
  const transactions = objectsOf(payload.transactions).map(transactionOf);
  const refundFields = objectOf(payload.refund);
  const payoutFields = objectOf(payload.payout);
  const earnings = objectOf(payoutFields?.earnings);
  const voucherFields = objectOf(payload.voucher);
  return {
    transaction,
    transactions,
    merchantId: transaction?.merchantId ?? transactions.find((item) => item.merchantId !== undefined)?.merchantId,
    refund: refundFields && { id: namedText(refundFields.refundId), amount: finiteNumber(refundFields.amount), currency: namedText(refundFields.currency), fields: refundFields },
    payout: payoutFields && {
      id: namedText(payoutFields.payoutId),
      amount: finiteNumber(earnings?.totalNetAmount),
      currency: namedText(earnings?.currency),
      notificationEmail: namedText(payoutFields.notificationEmail),
      fields: payoutFields,
    },
    voucher: voucherFields && { code: namedText(voucherFields.voucherCode), referrerId: namedText(voucherFields.referrerId), fields: voucherFields },
    voucherRedemption: voucherRedemptionOf(payload.voucherRedemption),
  };
}

function readPayloadFacts(payload: WireObject): PayloadFacts {
  const customer = partyOf(payload.customer, 'customerId');
  const paymentMethodFields = objectOf(payload.paymentMethod);
  const facts: Omit<PayloadFacts, 'money'> = {
    wire: payload,
    timestampMs: finiteNumber(payload.timestamp),
    customerId: namedText(payload.customerId) ?? customer?.id,
    customer,
    supplier: partyOf(payload.supplier, 'supplierId'),
    device: deviceOf(payload),
    paymentMethod: paymentMethodFields && paymentMethodOf(paymentMethodFields),
    paymentMethods: objectsOf(payload.paymentMethods).map(paymentMethodOf),
    connectCards: objectsOf(payload.paymentMethods).flatMap((method) => objectsOf([method.card])).map(paymentMethodOf),
    order: orderOf(payload.order),
    ...occurrencesOf(payload),
    registration: registrationOf(payload),
    dispute: disputeOf(payload.dispute, 'disputeId'),
    chargeback: disputeOf(payload.chargeback, 'chargebackId'),
    identifications: identificationsOf(payload.nationalIdentifications),
    vehicles: vehiclesOf(payload.vehicles),
    customNodes: customNodesOf(payload),
  };
  return { ...facts, money: payloadMoney(facts) };
}

const READ = new WeakMap<WireObject, PayloadFacts>();

/**
 * The facts a validated payload (in its wire JSON form, `toWireJson`) names, whatever its topic.
 * Read once per payload object: every reader handed the same object (entities, graph, velocity,
 * lookup, features) shares one reading, so they cannot disagree on what it names.
 */
export function payloadFacts(payload: WireObject): PayloadFacts {
  let facts = READ.get(payload);
  if (facts === undefined) {
    facts = readPayloadFacts(payload);
    READ.set(payload, facts);
  }
  return facts;
}
