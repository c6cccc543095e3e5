import type { GraphChange, GraphNodeRef } from './graph-change';
import { resolveNodeKind } from './graph-change';
import { GraphIndex, type GraphIndexOptions } from './graph-index';
import { VoucherRedemptions } from './voucher-redemptions';

/**
 * Everything the graph service answers from for one account and environment: the index and
 * the voucher redemptions, kept up to date by `apply`.
 *
 * `apply` makes every change commutative: labels and chargeback states keep the one with the
 * newest `atMs` (an equal time replaces, so a replay changes nothing), which is what lets a
 * rebuild from the store, a replay after a crash and the request's own links (applied by the
 * RPC before its event arrives) meet in one state. Only labelled customers and chargebacks
 * carry a time, so this costs nothing per ordinary node.
 */
export class TenantGraph {
  readonly index: GraphIndex;
  readonly redemptions = new VoucherRedemptions();
  private readonly labelTimes = new Map<string, number>();
  private readonly chargebackTimes = new Map<string, number>();

  constructor(options: GraphIndexOptions = {}) {
    this.index = new GraphIndex(options);
  }

  applyAll(changes: Iterable<GraphChange>): void {
    for (const change of changes) this.apply(change);
  }

  apply(change: GraphChange): void {
    switch (change.type) {
      case 'node':
        this.ensure(change.node);
        return;
      case 'link': {
        const kindA = resolveNodeKind(this.index, change.a);
        const kindB = resolveNodeKind(this.index, change.b);
        if (kindA === null || kindB === null) return;
        this.index.link(kindA, change.a.identity, kindB, change.b.identity, change.firstSeenMs);
        return;
      }
      case 'label':
        if (isNewer(this.labelTimes, change.customerId, change.atMs)) this.index.setLabel(change.customerId, change.label);
        return;
      case 'chargeback':
        if (isNewer(this.chargebackTimes, change.chargebackId, change.atMs)) this.index.setChargeback(change.chargebackId, { forgiven: change.forgiven });
        return;
      case 'tags':
        this.index.setTags(change.customerId, change.tags, change.atMs);
        return;
      case 'redemption':
        this.index.ensureNode('customer', change.customerId);
        this.redemptions.record(change.customerId, change.voucherCode, change.redemptionTimeMs, change.success, change.atMs);
        return;
    }
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
