import type { GraphChange, GraphNodeRef } from './graph-change';
import { CUSTOM_NODE_KINDS, nodesNamedBy, resolveNodeKind } from './graph-change';
import { GraphIndex, type GraphIndexOptions } from './graph-index';
import { type MerchantFraud, MerchantCustomers } from './merchant-customers';
import type { NetworkSubjectKind } from './network-features';
import { VoucherRedemptions } from './voucher-redemptions';

/**
 * Everything the graph service answers from for one account and environment: the index, the
 * voucher redemptions and the merchants' customers, kept up to date by `apply`.
 *
 * `apply` makes every change commutative: labels and chargeback states keep the one with the
 * newest `atMs` (an equal time replaces, so a replay changes nothing), which is what lets a
 * rebuild from the store, a replay after a crash and the request's own links (applied by the
 * RPC before its event arrives) meet in one state. Only labelled customers and chargebacks
 * carry a time, so this costs nothing per ordinary node.
 *
 * A PSP dispute names only its transaction, and the transaction's customer arrives on another
 * topic, in either order: the graph keeps each transaction's customers and disputes and links
 * customer and chargeback as soon as both are known, whichever came first. That costs one map
 * entry per PSP transaction with a customer (its id and the customer's node id).
 */
export class TenantGraph {
  readonly index: GraphIndex;
  readonly redemptions = new VoucherRedemptions();
  readonly merchants = new MerchantCustomers();
  private readonly labelTimes = new Map<string, number>();
  private readonly chargebackTimes = new Map<string, number>();
  /** Per PSP transaction, the node id of its customer (an array in the rare case of several). */
  private readonly transactionOwners = new Map<string, number | number[]>();
  /** Per PSP transaction, its disputes: chargeback id → earliest first-seen time. */
  private readonly transactionDisputes = new Map<string, Map<string, number>>();

  constructor(options: GraphIndexOptions = {}) {
    this.index = new GraphIndex(options);
    this.index.onFraudsterChange = (customer, fraudster) => this.merchants.fraudsterChanged(customer, fraudster);
  }

  applyAll(changes: Iterable<GraphChange>): void {
    for (const change of changes) this.apply(change);
  }

  /**
   * Applies one change. Returns false only for a link that changed nothing (its edge was there
   * with its time or an earlier one, and so were its nodes): nothing of it is new to store. Every
   * other change returns true, changed or not.
   */
  apply(change: GraphChange): boolean {
    switch (change.type) {
      case 'node':
        this.ensure(change.node);
        return true;
      case 'link': {
        const kindA = resolveNodeKind(this.index, change.a);
        const kindB = resolveNodeKind(this.index, change.b);
        // Left out, but the store still sees it: it gives custom types their slots in the order the index does (`customNodeTypesIn`).
        if (kindA === null || kindB === null) return true;
        const nodesBefore = this.index.nodeCount;
        const edge = this.index.link(kindA, change.a.identity, kindB, change.b.identity, change.firstSeenMs);
        return edge !== 'unchanged' || this.index.nodeCount !== nodesBefore;
      }
      case 'label':
        if (isNewer(this.labelTimes, change.customerId, change.atMs)) this.index.setLabel(change.customerId, change.label);
        return true;
      case 'chargeback':
        if (isNewer(this.chargebackTimes, change.chargebackId, change.atMs)) this.index.setChargeback(change.chargebackId, { forgiven: change.forgiven });
        return true;
      case 'tags':
        this.index.setTags(change.customerId, change.tags, change.atMs);
        return true;
      case 'redemption':
        this.index.ensureNode('customer', change.customerId);
        this.redemptions.record(change.customerId, change.voucherCode, change.redemptionTimeMs, change.success, change.atMs);
        return true;
      case 'transaction-owner':
        this.addTransactionOwner(change.transactionId, change.customerId);
        return true;
      case 'dispute':
        this.addDispute(change.transactionId, change.chargebackId, change.firstSeenMs);
        return true;
      case 'merchant-customer': {
        const customer = this.index.ensureNode('customer', change.customerId);
        this.merchants.add(change.merchantId, customer, this.index.isFraudsterNode(customer));
        return true;
      }
    }
  }

  /**
   * Whether applying `change` would add a node to the index (ADR-0016: an account holding
   * its share of the graph's nodes adds none). Nothing is changed, not even a custom-node slot.
   */
  addsNodes(change: GraphChange): boolean {
    return nodesNamedBy(change).some((node) => {
      if (node.kind !== 'custom') return this.index.find(node.kind, node.identity) === undefined;
      const kind = this.index.knownCustomNodeKind(node.nodeType);
      // A type without a slot gets one only while slots are left; past them nothing is linked.
      if (kind === undefined) return this.index.customNodeTypes().length < CUSTOM_NODE_KINDS.length;
      return this.index.find(kind, node.identity) === undefined;
    });
  }

  /**
   * The fraud rate of a merchant as a checkpoint's subject sees it: its other customers and how
   * many of them are fraudsters now (a supplier is never one of a merchant's customers).
   */
  merchantFraud(merchantId: string, subjectId: string, subjectKind: NetworkSubjectKind): MerchantFraud {
    const subject = subjectKind === 'customer' ? this.index.find('customer', subjectId) : undefined;
    return this.merchants.fraudOf(merchantId, subject, subject !== undefined && this.index.isFraudsterNode(subject));
  }

  /** The customers of a PSP transaction, in order of first appearance (none when unknown). */
  customersOfTransaction(transactionId: string): string[] {
    const owners = this.transactionOwners.get(transactionId);
    if (owners === undefined) return [];
    return (typeof owners === 'number' ? [owners] : owners).map((node) => this.index.identityOf(node));
  }

  /**
   * PSP transactions with at least one dispute (the overview's known fraud), in id order, at
   * most `limit`; `truncated` when more are disputed.
   */
  disputedTransactions(limit: number): { transactionIds: string[]; truncated: boolean } {
    const transactionIds = [...this.transactionDisputes.keys()].sort();
    return { transactionIds: transactionIds.slice(0, limit), truncated: transactionIds.length > limit };
  }

  /** Records a customer of the transaction and links it to the transaction's disputes known so far. */
  private addTransactionOwner(transactionId: string, customerId: string): void {
    const owner = this.index.ensureNode('customer', customerId);
    const owners = this.transactionOwners.get(transactionId);
    if (owners === undefined) this.transactionOwners.set(transactionId, owner);
    else if (owners === owner || (typeof owners !== 'number' && owners.includes(owner))) return;
    else this.transactionOwners.set(transactionId, typeof owners === 'number' ? [owners, owner] : [...owners, owner]);
    const disputes = this.transactionDisputes.get(transactionId);
    if (disputes === undefined) return;
    for (const [chargebackId, firstSeenMs] of disputes) this.index.link('customer', customerId, 'chargeback', chargebackId, firstSeenMs);
  }

  /**
   * Records a dispute of the transaction and links its chargeback to the transaction's customers
   * known so far. An earlier first-seen time than the one known links again (an edge keeps the
   * earliest); a later or equal one changes nothing.
   */
  private addDispute(transactionId: string, chargebackId: string, firstSeenMs: number): void {
    this.index.ensureNode('chargeback', chargebackId);
    let disputes = this.transactionDisputes.get(transactionId);
    if (disputes === undefined) {
      disputes = new Map();
      this.transactionDisputes.set(transactionId, disputes);
    }
    const known = disputes.get(chargebackId);
    if (known !== undefined && known <= firstSeenMs) return;
    disputes.set(chargebackId, firstSeenMs);
    for (const customerId of this.customersOfTransaction(transactionId)) this.index.link('customer', customerId, 'chargeback', chargebackId, firstSeenMs);
  }

  private ensure(node: GraphNodeRef): void {
    const kind = resolveNodeKind(this.index, node);
    if (kind !== null) this.index.ensureNode(kind, node.identity);
  }
}

/** Records `atMs` for `key` and answers true when it is at least the newest seen. */
function isNewer(times: Map<string, number>, key: string, atMs: number): boolean {
  const known = times.get(key);
  if (known !== undefined && atMs < known) return false;
  times.set(key, atMs);
  return true;
}
