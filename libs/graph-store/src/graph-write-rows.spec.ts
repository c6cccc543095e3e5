import type { GraphChange, GraphNodeRef } from '@ringfence/graph-engine';
import { assignCustomNodeTypes, customNodeTypesIn, needsNewCustomSlots, toWriteRows } from './graph-write-rows';

const NOW = 1_764_000_000_000;
const customer = (identity: string): GraphNodeRef => ({ kind: 'customer', identity });
const custom = (nodeType: string, identity: string): GraphNodeRef => ({ kind: 'custom', nodeType, identity });

describe('graph write rows', () => {
  it('lists custom types in the order TenantGraph meets them: node, then link a before b', () => {
    const changes: GraphChange[] = [
      { type: 'link', a: custom('b', '1'), b: custom('a', '1'), firstSeenMs: NOW },
      { type: 'node', node: custom('c', '1') },
      { type: 'label', customerId: 'x', label: null, atMs: NOW },
      { type: 'link', a: customer('c1'), b: custom('b', '2'), firstSeenMs: NOW },
    ];

    expect(customNodeTypesIn(changes)).toEqual(['b', 'a', 'c']);
  });

  it('gives new types the free slots in order, five at most, keeping the known ones first', () => {
    expect(assignCustomNodeTypes(['a', 'b'], ['c', 'a', 'd', 'e', 'f', 'g'])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(needsNewCustomSlots(['a', 'b'], ['a'])).toBe(false);
    expect(needsNewCustomSlots(['a', 'b'], ['c'])).toBe(true);
    expect(needsNewCustomSlots(['a', 'b', 'c', 'd', 'e'], ['f'])).toBe(false);
  });

  it('merges a batch to one row per key: earliest edge, newest-or-equal state, canonical endpoints, sorted', () => {
    const rows = toWriteRows(
      [
        { type: 'link', a: { kind: 'email', identity: 'a@x.io' }, b: customer('c2'), firstSeenMs: NOW },
        { type: 'link', a: customer('c2'), b: { kind: 'email', identity: 'a@x.io' }, firstSeenMs: NOW - 5 },
        { type: 'link', a: customer('c1'), b: custom('store', 's1'), firstSeenMs: NOW },
        { type: 'link', a: customer('c1'), b: custom('sixth', 'x'), firstSeenMs: NOW },
        { type: 'link', a: customer('c1'), b: customer('c1'), firstSeenMs: NOW },
        { type: 'label', customerId: 'c3', label: 'FRAUDSTER', atMs: NOW },
        { type: 'label', customerId: 'c3', label: 'GENUINE', atMs: NOW - 1 },
        { type: 'label', customerId: 'c3', label: null, atMs: NOW },
        { type: 'tags', customerId: 'c1', tags: { vip: true, odd: 'yes' as unknown as boolean }, atMs: NOW },
      ],
      ['store'],
    );

    expect(rows.nodes).toEqual([
      { kind: 'customNode1', identity: 's1' },
      { kind: 'customer', identity: 'c1' },
      { kind: 'customer', identity: 'c2' },
      { kind: 'customer', identity: 'c3' },
      { kind: 'email', identity: 'a@x.io' },
    ]);
    expect(rows.links).toEqual([
      { kindA: 'customNode1', identityA: 's1', kindB: 'customer', identityB: 'c1', firstSeenMs: NOW },
      { kindA: 'customer', identityA: 'c2', kindB: 'email', identityB: 'a@x.io', firstSeenMs: NOW - 5 },
    ]);
    expect(rows.labels).toEqual([{ customerId: 'c3', label: null, atMs: NOW }]);
    expect(rows.tags).toEqual([{ customerId: 'c1', name: 'vip', value: true, atMs: NOW }]);
  });

  it('keeps one transaction owner and one dispute per pair at its earliest time, with their customer and chargeback nodes', () => {
    const rows = toWriteRows(
      [
        { type: 'dispute', chargebackId: 'd1', transactionId: 't1', firstSeenMs: NOW },
        { type: 'transaction-owner', transactionId: 't1', customerId: 'c1', firstSeenMs: NOW },
        { type: 'dispute', chargebackId: 'd1', transactionId: 't1', firstSeenMs: NOW - 5 },
        { type: 'transaction-owner', transactionId: 't1', customerId: 'c1', firstSeenMs: NOW + 5 },
        { type: 'transaction-owner', transactionId: 't0', customerId: 'c2', firstSeenMs: NOW },
        { type: 'dispute', chargebackId: 'd0', transactionId: 't1', firstSeenMs: NOW },
      ],
      [],
    );

    expect(rows.nodes).toEqual([
      { kind: 'chargeback', identity: 'd0' },
      { kind: 'chargeback', identity: 'd1' },
      { kind: 'customer', identity: 'c1' },
      { kind: 'customer', identity: 'c2' },
    ]);
    expect(rows.transactionOwners).toEqual([
      { transactionId: 't0', customerId: 'c2', firstSeenMs: NOW },
      { transactionId: 't1', customerId: 'c1', firstSeenMs: NOW },
    ]);
    expect(rows.disputes).toEqual([
      { transactionId: 't1', chargebackId: 'd0', firstSeenMs: NOW },
      { transactionId: 't1', chargebackId: 'd1', firstSeenMs: NOW - 5 },
    ]);
    // The customer–chargeback edge is derived by TenantGraph (on write and on rebuild), not stored.
    expect(rows.links).toEqual([]);
    expect(() => toWriteRows([{ type: 'dispute', chargebackId: 'd1', transactionId: 't1', firstSeenMs: NOW + 0.5 }], [])).toThrow(RangeError);
  });

  it('refuses a kind outside the list and a time that is not whole milliseconds', () => {
    expect(() => toWriteRows([{ type: 'node', node: { kind: 'customNode1' as 'customer', identity: 'x' } }], [])).toThrow(TypeError);
    expect(() => toWriteRows([{ type: 'chargeback', chargebackId: 'cb', forgiven: false, atMs: Number.NaN }], [])).toThrow(RangeError);
  });
});
