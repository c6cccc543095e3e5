import fc from 'fast-check';
import { type GraphChange, type GraphNodeRef, customNodeIdentity } from '@ringfence/graph-engine';

export const NOW = 1_764_000_000_000;
export const HOUR = 3_600_000;
export const CUSTOMERS = ['c0', 'c1', 'c2', 'c3', 'c4'];
export const VOUCHER_CODES = ['V1', 'V2'];
export const TRANSACTIONS = ['t0', 't1', 't2'];
export const MERCHANTS = ['m0', 'm1'];
const LABELS = ['FRAUDSTER', 'GENUINE', 'POTENTIALLY_GENUINE', null];
const TAG_NAMES = ['vip', 'new', 'é'];

/**
 * Random graph changes over few identities, so that links share nodes and form networks.
 * `customNodeTypes` bounds the custom types drawn: more than five exercises the sixth type.
 * `stateFromTime`: labels, chargeback states, tag values and redemption successes are a
 * function of (key, time), so two facts of equal time agree and any order gives the same
 * store (with an equal time the later arrival replaces, the one case order decides).
 */
export function graphChanges(options: { customNodeTypes: number; stateFromTime: boolean; maxLength?: number }): fc.Arbitrary<GraphChange[]> {
  const customTypes = Array.from({ length: options.customNodeTypes }, (_, index) => `type${index + 1}`);
  const customer = fc.constantFrom(...CUSTOMERS).map((identity): GraphNodeRef => ({ kind: 'customer', identity }));
  const fixedAttribute = fc
    .tuple(fc.constantFrom('email', 'device', 'card', 'phone', 'vehicle', 'identification', 'chargeback', 'supplier' as const), fc.constantFrom('0', '1', '2'))
    .map(([kind, identity]): GraphNodeRef => ({ kind, identity }));
  const customAttribute = fc
    .tuple(fc.constantFrom(...customTypes), fc.constantFrom('1', '2'))
    .map(([nodeType, id]): GraphNodeRef => ({ kind: 'custom', nodeType, identity: customNodeIdentity(nodeType, id) }));
  const attribute = customTypes.length === 0 ? fixedAttribute : fc.oneof({ weight: 3, arbitrary: fixedAttribute }, { weight: 1, arbitrary: customAttribute });
  const anyNode = fc.oneof(customer, attribute);
  // Few distinct times: ties between first-seen times and between state times are common.
  const time = fc.integer({ min: 0, max: 8 }).map((step) => NOW - step * 6 * HOUR);
  const state = <Value>(values: fc.Arbitrary<Value>, fromTime: (atMs: number) => Value) =>
    options.stateFromTime ? time.map((atMs) => ({ value: fromTime(atMs), atMs })) : fc.record({ value: values, atMs: time });

  const change: fc.Arbitrary<GraphChange> = fc.oneof(
    { weight: 8, arbitrary: fc.record({ type: fc.constant('link' as const), a: customer, b: attribute, firstSeenMs: time }) },
    { weight: 2, arbitrary: fc.record({ type: fc.constant('link' as const), a: anyNode, b: anyNode, firstSeenMs: time }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('node' as const), node: anyNode }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...CUSTOMERS), state(fc.constantFrom(...LABELS), (atMs) => LABELS[(atMs / HOUR) % LABELS.length]))
        .map(([customerId, { value, atMs }]): GraphChange => ({ type: 'label', customerId, label: value, atMs })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('0', '1', '2'), state(fc.boolean(), (atMs) => (atMs / HOUR) % 4 === 0))
        .map(([chargebackId, { value, atMs }]): GraphChange => ({ type: 'chargeback', chargebackId, forgiven: value, atMs })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...CUSTOMERS), fc.subarray(TAG_NAMES), time, fc.array(fc.boolean(), { minLength: TAG_NAMES.length, maxLength: TAG_NAMES.length }))
        .map(([customerId, names, atMs, drawn]): GraphChange => ({
          type: 'tags',
          customerId,
          tags: Object.fromEntries(names.map((name, index) => [name, options.stateFromTime ? ((atMs / HOUR) + name.length) % 3 === 0 : drawn[index]])),
          atMs,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...CUSTOMERS), fc.constantFrom(...VOUCHER_CODES), fc.constantFrom(NOW - HOUR, NOW), state(fc.boolean(), (atMs) => (atMs / HOUR) % 3 !== 0))
        .map(([customerId, voucherCode, redemptionTimeMs, { value, atMs }]): GraphChange => ({
          type: 'redemption',
          customerId,
          voucherCode,
          redemptionTimeMs,
          success: value,
          atMs,
        })),
    },
    // PSP transactions and their disputes, over the chargebacks the links name too.
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...TRANSACTIONS), fc.constantFrom(...CUSTOMERS), time)
        .map(([transactionId, customerId, firstSeenMs]): GraphChange => ({ type: 'transaction-owner', transactionId, customerId, firstSeenMs })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('0', '1', '2'), fc.constantFrom(...TRANSACTIONS), time)
        .map(([chargebackId, transactionId, firstSeenMs]): GraphChange => ({ type: 'dispute', chargebackId, transactionId, firstSeenMs })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...MERCHANTS), fc.constantFrom(...CUSTOMERS), time)
        .map(([merchantId, customerId, firstSeenMs]): GraphChange => ({ type: 'merchant-customer', merchantId, customerId, firstSeenMs })),
    },
  );
  return fc.array(change, { maxLength: options.maxLength ?? 40, size: 'max' });
}

/** A permutation of `list` and a random split of it into consecutive batches. */
export function reorderedBatches(list: readonly GraphChange[]): fc.Arbitrary<GraphChange[][]> {
  return fc
    .tuple(fc.shuffledSubarray([...list], { minLength: list.length, maxLength: list.length }), fc.array(fc.integer({ min: 1, max: 8 }), { minLength: list.length }))
    .map(([shuffled, sizes]) => splitInto(shuffled, sizes));
}

/** Consecutive batches of the given sizes (the last one takes the rest). */
export function splitInto<Item>(list: readonly Item[], sizes: readonly number[]): Item[][] {
  const batches: Item[][] = [];
  let start = 0;
  for (const size of sizes) {
    if (start >= list.length) break;
    batches.push(list.slice(start, start + size));
    start += size;
  }
  if (start < list.length) batches.push(list.slice(start));
  return batches;
}
