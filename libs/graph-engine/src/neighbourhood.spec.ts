import fc from 'fast-check';
import { GraphIndex } from './graph-index';
import type { Neighbourhood } from './neighbourhood';
import { NODE_KINDS, type NodeKind } from './node-kind';
import { ReferenceGraph } from './test-support/reference-graph';

const NOW = 1_700_000_000_000;

/** Nodes as `kind:identity` with their depth, and edges as sorted name pairs with their time: comparable across implementations. */
function named(answer: Neighbourhood) {
  const names = answer.nodes.map((node) => `${node.kind}:${node.identity}`);
  return {
    nodes: answer.nodes.map((node, k) => ({ name: names[k], depth: node.depth, fraudster: node.fraudster })),
    edges: answer.edges.map(({ source, target, firstSeenMs }) => `${[names[source], names[target]].sort().join(' ~ ')} @${firstSeenMs}`).sort(),
    truncated: answer.truncated,
  };
}

/** A customer whose device and card are shared with another customer, who also has an e-mail. */
function sharedDeviceAndCard(): GraphIndex {
  const graph = new GraphIndex();
  graph.link('customer', 'ada', 'device', 'd1', NOW - 3);
  graph.link('customer', 'ada', 'card', 'instrument:c1', NOW - 2);
  graph.link('customer', 'eve', 'device', 'd1', NOW - 1);
  graph.link('customer', 'eve', 'card', 'instrument:c1', NOW);
  graph.link('customer', 'eve', 'email', 'eve@example.com', NOW);
  return graph;
}

describe('neighbourhood', () => {
  it('lists the subject first, then breadth-first with depths, and every edge among the nodes', () => {
    const answer = named(sharedDeviceAndCard().neighbourhood('ada', { depth: 2, limit: 10 }));

    expect(answer.nodes).toEqual([
      { name: 'customer:ada', depth: 0, fraudster: false },
      { name: 'device:d1', depth: 1, fraudster: false },
      { name: 'card:instrument:c1', depth: 1, fraudster: false },
      { name: 'customer:eve', depth: 2, fraudster: false },
    ]);
    expect(answer.edges).toEqual(
      [`card:instrument:c1 ~ customer:ada @${NOW - 2}`, `card:instrument:c1 ~ customer:eve @${NOW}`, `customer:ada ~ device:d1 @${NOW - 3}`, `customer:eve ~ device:d1 @${NOW - 1}`].sort(),
    );
    expect(answer.truncated).toBe(false);
  });

  it('points each edge away from the subject: its source is never deeper than its target', () => {
    const { nodes, edges } = sharedDeviceAndCard().neighbourhood('eve', { depth: 3, limit: 10 });

    for (const { source, target } of edges) expect(nodes[source].depth).toBeLessThanOrEqual(nodes[target].depth);
    expect(edges.every(({ source, target }) => source < target)).toBe(true);
  });

  it('marks the customers that are fraudsters now: labelled FRAUDSTER, or linked to an unforgiven chargeback', () => {
    const graph = sharedDeviceAndCard();
    graph.setLabel('eve', 'FRAUDSTER');
    expect(graph.neighbourhood('ada', { depth: 2, limit: 10 }).nodes.filter((node) => node.fraudster).map((node) => node.identity)).toEqual(['eve']);

    graph.setLabel('eve', 'GENUINE');
    graph.link('customer', 'ada', 'chargeback', 'cb1', NOW);
    expect(graph.neighbourhood('ada', { depth: 2, limit: 10 }).nodes.filter((node) => node.fraudster).map((node) => node.identity)).toEqual(['ada']);

    graph.setChargeback('cb1', { forgiven: true });
    expect(graph.neighbourhood('ada', { depth: 2, limit: 10 }).nodes.some((node) => node.fraudster)).toBe(false);
  });

  it('stops at the depth: nodes further away are not included and do not make it truncated', () => {
    const answer = sharedDeviceAndCard().neighbourhood('ada', { depth: 1, limit: 10 });

    expect(answer.nodes.map((node) => node.identity)).toEqual(['ada', 'd1', 'instrument:c1']);
    expect(answer.truncated).toBe(false);
  });

  it('includes at most limit nodes and says so only when a further node existed within the depth', () => {
    const graph = sharedDeviceAndCard();

    const cut = graph.neighbourhood('ada', { depth: 2, limit: 3 });
    expect(cut.nodes.map((node) => node.identity)).toEqual(['ada', 'd1', 'instrument:c1']);
    expect(cut.truncated).toBe(true);
    // The edges among the nodes kept are all there, also those of a node not expanded.
    expect(cut.edges).toHaveLength(2);

    const exact = graph.neighbourhood('ada', { depth: 2, limit: 4 });
    expect(exact.nodes).toHaveLength(4);
    expect(exact.truncated).toBe(false);
    expect(graph.neighbourhood('ada', { depth: 1, limit: 1 })).toMatchObject({ nodes: [{ identity: 'ada' }], edges: [], truncated: true });
  });

  it('has no degree cap: a hub is drawn, and only limit of its neighbours', () => {
    const graph = new GraphIndex();
    for (let i = 0; i < 6000; i += 1) graph.link('customer', `c${i}`, 'email', 'shared@example.com', NOW);

    const answer = graph.neighbourhood('c0', { depth: 2, limit: 50 });

    expect(answer.nodes).toHaveLength(50);
    expect(answer.nodes[1]).toMatchObject({ kind: 'email', identity: 'shared@example.com', depth: 1 });
    expect(answer.edges).toHaveLength(49);
    expect(answer.truncated).toBe(true);
  });

  it('finds the edges between two nodes at the depth limit (a customer and a supplier of one order)', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'ada', 'email', 'a@example.com', NOW);
    graph.link('customer', 'ada', 'device', 'd', NOW);
    graph.link('supplier', 's', 'email', 'a@example.com', NOW);
    graph.link('customer', 'bob', 'device', 'd', NOW);
    graph.link('customer', 'bob', 'supplier', 's', NOW - 5);

    expect(named(graph.neighbourhood('ada', { depth: 2, limit: 10 })).edges).toContain(`customer:bob ~ supplier:s @${NOW - 5}`);
  });

  it('answers a subject it does not know as a lone node, without creating it', () => {
    const graph = sharedDeviceAndCard();
    const nodes = graph.nodeCount;

    expect(graph.neighbourhood('nobody', { depth: 3, limit: 10 }, 'supplier')).toEqual({
      nodes: [{ kind: 'supplier', identity: 'nobody', depth: 0, fraudster: false }],
      edges: [],
      truncated: false,
    });
    expect(graph.nodeCount).toBe(nodes);
  });

  it('starts from a supplier as from a customer', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'ada', 'supplier', 's', NOW);
    graph.setLabel('ada', 'FRAUDSTER');

    expect(named(graph.neighbourhood('s', { depth: 1, limit: 10 }, 'supplier')).nodes).toEqual([
      { name: 'supplier:s', depth: 0, fraudster: false },
      { name: 'customer:ada', depth: 1, fraudster: true },
    ]);
  });
});

type Operation =
  | { op: 'link'; a: [NodeKind, string]; b: [NodeKind, string]; t: number }
  | { op: 'label'; customer: string; label: string | null }
  | { op: 'chargeback'; chargeback: string; forgiven: boolean };

// Few identities, so that random links share nodes and form rings and hubs.
const subject = fc.oneof(fc.tuple(fc.constant<NodeKind>('customer'), fc.constantFrom('c0', 'c1', 'c2', 'c3', 'c4')), fc.tuple(fc.constant<NodeKind>('supplier'), fc.constantFrom('0', '1')));
const anyNode: fc.Arbitrary<[NodeKind, string]> = fc.oneof(subject, fc.tuple(fc.constantFrom(...NODE_KINDS), fc.constantFrom('0', '1', '2')));
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 10, arbitrary: fc.record({ op: fc.constant('link' as const), a: subject, b: anyNode, t: fc.integer({ min: NOW - 1000, max: NOW }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('link' as const), a: anyNode, b: anyNode, t: fc.integer({ min: NOW - 1000, max: NOW }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('label' as const), customer: fc.constantFrom('c0', 'c1', 'c2', 'c3', 'c4', '0'), label: fc.constantFrom('FRAUDSTER', 'GENUINE', null) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('chargeback' as const), chargeback: fc.constantFrom('0', '1', '2'), forgiven: fc.boolean() }) },
);

describe('neighbourhood agrees with the reference traversal on random graphs', () => {
  it('the same nodes in the same order, the same edges, fraudsters and truncation', () => {
    const seen = { truncated: 0, fraudster: 0, depthLimited: 0, runs: 0 };
    fc.assert(
      fc.property(fc.array(operation, { minLength: 3, maxLength: 50 }), subject, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 12 }), (operations, [kind, id], depth, limit) => {
        const engine = new GraphIndex();
        const reference = new ReferenceGraph();
        for (const step of operations) {
          for (const graph of [engine, reference]) {
            if (step.op === 'link') graph.link(step.a[0], step.a[1], step.b[0], step.b[1], step.t);
            else if (step.op === 'label') graph.setLabel(step.customer, step.label);
            else graph.setChargeback(step.chargeback, { forgiven: step.forgiven });
          }
        }
        const subjectKind = kind as 'customer' | 'supplier';
        const actual = named(engine.neighbourhood(id, { depth, limit }, subjectKind));
        const expected = reference.neighbourhood(subjectKind, id, { depth, limit });
        const expectedNames = expected.nodes.map((node) => `${node.kind}:${node.identity}`);
        const nameOf = (key: string) => {
          const [nodeKind, identity] = JSON.parse(key) as [string, string];
          return `${nodeKind}:${identity}`;
        };
        expect(actual.nodes).toEqual(expected.nodes.map((node, k) => ({ name: expectedNames[k], depth: node.depth, fraudster: node.fraudster })));
        expect(actual.edges).toEqual(expected.edges.map(([a, b, t]) => `${[nameOf(a), nameOf(b)].sort().join(' ~ ')} @${t}`).sort());
        expect(actual.truncated).toBe(expected.truncated);
        seen.runs += 1;
        if (expected.truncated) seen.truncated += 1;
        if (expected.nodes.some((node) => node.fraudster)) seen.fraudster += 1;
        if (!expected.truncated && expected.nodes.some((node) => node.depth === depth)) seen.depthLimited += 1;
      }),
      { numRuns: 1500 },
    );
    // Each case must have come up often enough to be tested, not just once.
    for (const [name, times] of Object.entries(seen)) expect({ name, often: times >= seen.runs / 20 }).toEqual({ name, often: true });
  });
});
