import {
  customNodesOf,
  deviceOf,
  disputeOf,
  identificationsOf,
  moneyOf,
  orderOf,
  partyOf,
  paymentMethodOf,
  payoutOf,
  refundOf,
  registrationOf,
  transactionOf,
  vehiclesOf,
  voucherOf,
  voucherRedemptionOf,
} from './payload-fact-readers';
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
  PayoutFacts,
  RefundFacts,
  RegistrationFacts,
  TransactionFacts,
  VehicleFacts,
  VoucherFacts,
  VoucherRedemptionFacts,
} from './payload-facts.types';
import { type WireObject, finiteNumber, namedText, objectOf, objectsOf } from './payload-values';

const NOT_READ = Symbol('not read yet');
type Lazy<T> = T | typeof NOT_READ;

/**
 * A payload's facts, each read from its JSON when a reader first asks for it and kept: a reader
 * pays only for what it reads (velocity reads a few ids, entities whole objects), and nothing
 * it does not ask for is touched (the graph never opens `registration`, which may hold a
 * password hash). Hand one reading to every reader of the same event.
 */
class PayloadFactsReading implements PayloadFacts {
  private customerRead: Lazy<PartyFacts | undefined> = NOT_READ;
  private supplierRead: Lazy<PartyFacts | undefined> = NOT_READ;
  private deviceRead: Lazy<DeviceFacts> = NOT_READ;
  private paymentMethodRead: Lazy<PaymentMethodFacts | undefined> = NOT_READ;
  private paymentMethodsRead: Lazy<readonly PaymentMethodFacts[]> = NOT_READ;
  private connectCardsRead: Lazy<readonly PaymentMethodFacts[]> = NOT_READ;
  private orderRead: Lazy<OrderFacts | undefined> = NOT_READ;
  private transactionRead: Lazy<TransactionFacts | undefined> = NOT_READ;
  private transactionsRead: Lazy<readonly TransactionFacts[]> = NOT_READ;
  private moneyRead: Lazy<PayloadMoney | undefined> = NOT_READ;
  private refundRead: Lazy<RefundFacts | undefined> = NOT_READ;
  private payoutRead: Lazy<PayoutFacts | undefined> = NOT_READ;
  private registrationRead: Lazy<RegistrationFacts> = NOT_READ;
  private disputeRead: Lazy<DisputeFacts | undefined> = NOT_READ;
  private chargebackRead: Lazy<DisputeFacts | undefined> = NOT_READ;
  private voucherRead: Lazy<VoucherFacts | undefined> = NOT_READ;
  private voucherRedemptionRead: Lazy<VoucherRedemptionFacts | undefined> = NOT_READ;
  private identificationsRead: Lazy<readonly IdentificationFacts[]> = NOT_READ;
  private vehiclesRead: Lazy<readonly VehicleFacts[]> = NOT_READ;
  private customNodesRead: Lazy<readonly CustomNodeFacts[]> = NOT_READ;

  constructor(readonly wire: WireObject) {}

  get timestampMs(): number | undefined {
    return finiteNumber(this.wire.timestamp);
  }

  get customerId(): string | undefined {
    return namedText(this.wire.customerId) ?? this.customer?.id;
  }

  get customer(): PartyFacts | undefined {
    if (this.customerRead === NOT_READ) this.customerRead = partyOf(this.wire.customer, 'customerId');
    return this.customerRead;
  }

  get supplier(): PartyFacts | undefined {
    if (this.supplierRead === NOT_READ) this.supplierRead = partyOf(this.wire.supplier, 'supplierId');
    return this.supplierRead;
  }

  get device(): DeviceFacts {
    if (this.deviceRead === NOT_READ) this.deviceRead = deviceOf(this.wire);
    return this.deviceRead;
  }

  get paymentMethod(): PaymentMethodFacts | undefined {
    if (this.paymentMethodRead === NOT_READ) {
      const fields = objectOf(this.wire.paymentMethod);
      this.paymentMethodRead = fields && paymentMethodOf(fields);
    }
    return this.paymentMethodRead;
  }

  get paymentMethods(): readonly PaymentMethodFacts[] {
    if (this.paymentMethodsRead === NOT_READ) this.paymentMethodsRead = objectsOf(this.wire.paymentMethods).map(paymentMethodOf);
    return this.paymentMethodsRead;
  }

  get connectCards(): readonly PaymentMethodFacts[] {
    if (this.connectCardsRead === NOT_READ) {
      this.connectCardsRead = objectsOf(this.wire.paymentMethods).flatMap((method) => objectsOf([method.card])).map(paymentMethodOf);
    }
    return this.connectCardsRead;
  }

  get order(): OrderFacts | undefined {
    if (this.orderRead === NOT_READ) this.orderRead = orderOf(this.wire.order);
    return this.orderRead;
  }

  get transaction(): TransactionFacts | undefined {
    if (this.transactionRead === NOT_READ) {
      const fields = objectOf(this.wire.transaction);
      this.transactionRead = fields && transactionOf(fields);
    }
    return this.transactionRead;
  }

  get transactions(): readonly TransactionFacts[] {
    if (this.transactionsRead === NOT_READ) this.transactionsRead = objectsOf(this.wire.transactions).map(transactionOf);
    return this.transactionsRead;
  }

  get merchantId(): string | undefined {
    if (this.transaction !== undefined) return this.transaction.merchantId ?? this.firstTransactionsMid();
    return this.firstTransactionsMid();
  }

  /** A refund's merchant: its first transaction with a `mid` (read without reading the transactions whole). */
  private firstTransactionsMid(): string | undefined {
    if (this.transactionsRead !== NOT_READ) return this.transactionsRead.find((item) => item.merchantId !== undefined)?.merchantId;
    for (const transaction of objectsOf(this.wire.transactions)) {
      const mid = namedText(transaction.mid);
      if (mid !== undefined) return mid;
    }
    return undefined;
  }

  /** At most one of a transaction, a refund, a payout and a redemption is sent by any one payload. */
  get money(): PayloadMoney | undefined {
    if (this.moneyRead === NOT_READ) {
      const { transaction, refund, payout, voucherRedemption } = this;
      this.moneyRead =
        moneyOf(transaction?.amount, transaction?.currency) ??
        moneyOf(refund?.amount, refund?.currency ?? this.order?.currency) ??
        moneyOf(payout?.amount, payout?.currency) ??
        moneyOf(voucherRedemption?.value, voucherRedemption?.currency);
    }
    return this.moneyRead;
  }

  get refund(): RefundFacts | undefined {
    if (this.refundRead === NOT_READ) this.refundRead = refundOf(this.wire.refund);
    return this.refundRead;
  }

  get payout(): PayoutFacts | undefined {
    if (this.payoutRead === NOT_READ) this.payoutRead = payoutOf(this.wire.payout);
    return this.payoutRead;
  }

  get registration(): RegistrationFacts {
    if (this.registrationRead === NOT_READ) this.registrationRead = registrationOf(this.wire);
    return this.registrationRead;
  }

  get dispute(): DisputeFacts | undefined {
    if (this.disputeRead === NOT_READ) this.disputeRead = disputeOf(this.wire.dispute, 'disputeId');
    return this.disputeRead;
  }

  get chargeback(): DisputeFacts | undefined {
    if (this.chargebackRead === NOT_READ) this.chargebackRead = disputeOf(this.wire.chargeback, 'chargebackId');
    return this.chargebackRead;
  }

  get voucher(): VoucherFacts | undefined {
    if (this.voucherRead === NOT_READ) this.voucherRead = voucherOf(this.wire.voucher);
    return this.voucherRead;
  }

  get voucherRedemption(): VoucherRedemptionFacts | undefined {
    if (this.voucherRedemptionRead === NOT_READ) this.voucherRedemptionRead = voucherRedemptionOf(this.wire.voucherRedemption);
    return this.voucherRedemptionRead;
  }

  get identifications(): readonly IdentificationFacts[] {
    if (this.identificationsRead === NOT_READ) this.identificationsRead = identificationsOf(this.wire.nationalIdentifications);
    return this.identificationsRead;
  }

  get vehicles(): readonly VehicleFacts[] {
    if (this.vehiclesRead === NOT_READ) this.vehiclesRead = vehiclesOf(this.wire.vehicles);
    return this.vehiclesRead;
  }

  get customNodes(): readonly CustomNodeFacts[] {
    if (this.customNodesRead === NOT_READ) this.customNodesRead = customNodesOf(this.wire);
    return this.customNodesRead;
  }
}

/**
 * The facts a validated payload (in its wire JSON form, `toWireJson`) names, whatever its topic.
 * Where one event has several readers (a checkpoint: entities, lookup, the graph's question,
 * features), the service reads its facts once and hands the same reading to each.
 */
export function payloadFacts(payload: WireObject): PayloadFacts {
  return new PayloadFactsReading(payload);
}
