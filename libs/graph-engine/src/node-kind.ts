/**
 * The node kinds of the graph (ADR-0004), in the order of the connect answer's fields
 * (`CONNECT_NODE_KINDS` of the contracts). A kind's position is its code in the index's
 * `Uint8Array` of kinds, so the order must not change.
 */
export const NODE_KINDS = [
  'customer',
  'card',
  'email',
  'phone',
  'device',
  'vehicle',
  'identification',
  'customNode1',
  'customNode2',
  'customNode3',
  'customNode4',
  'customNode5',
  'supplier',
  'chargeback',
] as const;

export type NodeKind = (typeof NODE_KINDS)[number];

export const KIND_COUNT = NODE_KINDS.length;

export const CUSTOMER = 0;
export const CHARGEBACK = 13;

const CODES: Readonly<Record<string, number>> = Object.fromEntries(NODE_KINDS.map((kind, code) => [kind, code]));

/** The numeric code of a kind; throws for a name that is not a kind (a caller bug). */
export function kindCode(kind: NodeKind): number {
  const code = CODES[kind];
  if (code === undefined) throw new TypeError(`not a graph node kind: ${String(kind)}`);
  return code;
}

/** The five custom-node kinds, slot 1 first. */
export const CUSTOM_NODE_KINDS = ['customNode1', 'customNode2', 'customNode3', 'customNode4', 'customNode5'] as const satisfies readonly NodeKind[];
