import type { GraphNeighbourhoodReply } from '@ringfence/contracts';

const INSTRUMENT = 'instrument:';

/** The customers of a network, and its cards known by instrument (the graph's `instrument:<id>` nodes), each once, to ask their owners about. */
export function networkQuestions(network: GraphNeighbourhoodReply): { customerIds: string[]; instrumentIds: string[] } {
  const customerIds = network.nodes.filter((node) => node.type === 'customer').map((node) => node.value);
  const instrumentIds = network.nodes.filter((node) => node.type === 'card' && node.value.startsWith(INSTRUMENT)).map((node) => node.value.slice(INSTRUMENT.length));
  return { customerIds, instrumentIds };
}

export interface NetworkAnswers {
  /** In the order of `networkQuestions`. */
  scores: ReadonlyArray<number | null>;
  labels: ReadonlyArray<Record<string, string>>;
  cards: ReadonlyArray<string | null>;
}

/**
 * The graph's network as analysts read it (ADR-0014): each customer with its latest score and
 * current labels, each card edge's attribute as `BIN…last4` when a decision saw that instrument
 * with its BIN and last four (else the instrument id the graph keys it by).
 */
export function withNetworkAnswers(network: GraphNeighbourhoodReply, answers: NetworkAnswers) {
  const cardOf = new Map<string, string>();
  let card = 0;
  let customer = 0;
  const nodes = network.nodes.map((node) => {
    if (node.type === 'card' && node.value.startsWith(INSTRUMENT)) {
      const shown = answers.cards[card];
      card += 1;
      if (shown !== null && shown !== undefined) cardOf.set(node.id, shown);
      return node;
    }
    if (node.type !== 'customer') return node;
    const k = customer;
    customer += 1;
    return { ...node, score: answers.scores[k] ?? null, labels: answers.labels[k] ?? {} };
  });
  const edges = network.edges.map((edge) => {
    if (edge.attribute.kind !== 'card') return edge;
    const shown = cardOf.get(edge.source) ?? cardOf.get(edge.target);
    return shown === undefined ? edge : { ...edge, attribute: { kind: 'card', value: shown } };
  });
  return { ...network, nodes, edges };
}
