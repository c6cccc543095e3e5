// The network answer read for drawing (issue 37): the kind of each link, short labels, the path to
// the nearest fraudster, and the view that isolates one kind of shared attribute.
import type { Network, NetworkEdge, NetworkNode } from '../types';

const SUBJECT_KINDS = new Set(['customer', 'supplier']);

/**
 * Readable names of the graph's node kinds: NODE_KINDS of libs/graph-engine/src/node-kind.ts
 * (ADR-0004), mirrored because the console may not import the graph engine. A network's nodes
 * and its edges' `attribute.kind` are these kinds (an IP address is no node of the graph).
 */
export const KIND_NAMES: Record<string, string> = {
  customer: 'customer',
  card: 'card',
  email: 'e-mail',
  phone: 'phone',
  device: 'device',
  vehicle: 'vehicle',
  identification: 'identification',
  customNode1: 'custom node 1',
  customNode2: 'custom node 2',
  customNode3: 'custom node 3',
  customNode4: 'custom node 4',
  customNode5: 'custom node 5',
  supplier: 'supplier',
  chargeback: 'chargeback',
};

/** By the graph's node kinds (KIND_NAMES); the custom kinds share the drawing's default grey. */
export const KIND_COLOURS: Record<string, string> = {
  customer: '#1d5fb4',
  supplier: '#6b3fa0',
  device: '#2f7d4f',
  card: '#a35c00',
  email: '#00707a',
  phone: '#7a5200',
  vehicle: '#555f6d',
  identification: '#8a3b5c',
  chargeback: '#b3261e',
};

export const kindName = (kind: string) => KIND_NAMES[kind] ?? kind;

/** What the two ends of a link share: the server's `attribute`, else the end that is not a customer. */
export function edgeAttribute(edge: NetworkEdge, nodes: Map<string, NetworkNode>): { kind: string; value: string } {
  if (edge.attribute) return edge.attribute;
  const ends = [nodes.get(edge.source), nodes.get(edge.target)];
  const attribute = ends.find((node) => node && !SUBJECT_KINDS.has(node.type)) ?? ends[1] ?? ends[0];
  return { kind: attribute?.type ?? 'link', value: attribute ? displayValue(attribute) : '' };
}

/** A node's value as an analyst reads it: a card's instrument without its `instrument:` prefix. */
export function displayValue(node: NetworkNode): string {
  return node.value.replace(/^instrument:/, '');
}

export function ellipsis(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

/** A node's current labels as one line ("FRAUDSTER"), whatever shape the server sent. */
export function labelsOf(node: NetworkNode): string {
  const labels = node.labels;
  if (!labels) return '';
  const values: unknown[] = Array.isArray(labels) ? labels : Object.values(labels);
  // A label may come as its review ("FRAUDSTER") or as the label object ({review, eventTime, …}).
  return values
    .map((value) => (typeof value === 'string' ? value : typeof value === 'object' && value !== null && 'review' in value ? String((value as { review: unknown }).review) : ''))
    .filter(Boolean)
    .join(', ');
}

/** The short text drawn beside a node; the full value is in the table and the tooltip. */
export function nodeCaption(node: NetworkNode, max: number): string {
  if (SUBJECT_KINDS.has(node.type)) {
    const facts = [node.score === null || node.score === undefined ? '' : `score ${node.score}`, labelsOf(node) || (node.fraudster ? 'fraudster' : '')].filter(Boolean);
    return facts.length > 0 ? `${ellipsis(node.value, max)}\n${facts.join(' · ')}` : ellipsis(node.value, max);
  }
  return `${kindName(node.type)} ${ellipsis(displayValue(node), max - 4)}`;
}

export function edgeCaption(attribute: { kind: string; value: string }, max: number): string {
  return `${kindName(attribute.kind)}: ${ellipsis(attribute.value, max)}`;
}

/** The pairs of consecutive nodes on the path to the nearest fraudster, either way round. */
export function pathPairs(path: string[] | null | undefined): Set<string> {
  const pairs = new Set<string>();
  for (let index = 1; index < (path?.length ?? 0); index += 1) {
    const [from, to] = [path?.[index - 1] as string, path?.[index] as string];
    pairs.add(`${from}\u0000${to}`);
    pairs.add(`${to}\u0000${from}`);
  }
  return pairs;
}

export const onPath = (pairs: Set<string>, edge: NetworkEdge) => pairs.has(`${edge.source}\u0000${edge.target}`);

/** The kinds of shared attribute the network's links carry, for the "isolate one kind" control. */
export function attributeKinds(network: Network): string[] {
  const nodes = new Map(network.nodes.map((node) => [node.id, node]));
  return [...new Set(network.edges.map((edge) => edgeAttribute(edge, nodes).kind))].sort();
}

/**
 * Only the links of one kind of attribute (e-mail, card, device…) and the nodes they join; the
 * subject stays. The path to the nearest fraudster stays only when every link of it does (else
 * it would name nodes not drawn). `kind` empty: the whole network.
 */
export function isolate(network: Network, kind: string): Network {
  if (!kind) return network;
  const nodes = new Map(network.nodes.map((node) => [node.id, node]));
  const edges = network.edges.filter((edge) => edgeAttribute(edge, nodes).kind === kind);
  const kept = new Set(edges.flatMap((edge) => [edge.source, edge.target]));
  const shownNodes = network.nodes.filter((node) => node.subject || kept.has(node.id));
  const path = network.pathToFraudster;
  const linked = new Set(edges.map((edge) => `${edge.source}\u0000${edge.target}`).concat(edges.map((edge) => `${edge.target}\u0000${edge.source}`)));
  const pathKept = path?.every((id, index) => (index === 0 ? shownNodes.some((node) => node.id === id) : linked.has(`${path[index - 1]}\u0000${id}`)));
  return { ...network, nodes: shownNodes, edges, ...(path === undefined ? {} : { pathToFraudster: pathKept ? path : null }) };
}
