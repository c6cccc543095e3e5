import { KIND_COLOURS, KIND_NAMES, edgeAttribute, isolate, kindName, onPath, pathPairs } from '../../apps/console/src/components/network-model';
import type { Network, NetworkNode } from '../../apps/console/src/types';

/**
 * The console's reading of a network answer (issue 37): which links lie on the path to the
 * nearest fraudster, what each link shares, and the view isolating one kind of shared attribute.
 */
const node = (id: string, extra: Partial<NetworkNode> = {}): NetworkNode => ({ id, type: id.split(':')[0] ?? '', value: id.split(':').slice(1).join(':'), ...extra });

// ana shares an e-mail with eve (a fraudster) and a card with bob.
const network: Network = {
  nodes: [node('customer:ana', { subject: true }), node('email:shared@example.com'), node('customer:eve', { fraudster: true }), node('card:instrument:ins-1'), node('customer:bob')],
  edges: [
    { source: 'customer:ana', target: 'email:shared@example.com', attribute: { kind: 'email', value: 'shared@example.com' } },
    { source: 'customer:eve', target: 'email:shared@example.com', attribute: { kind: 'email', value: 'shared@example.com' } },
    { source: 'customer:ana', target: 'card:instrument:ins-1', attribute: { kind: 'card', value: '411111…1111' } },
    { source: 'card:instrument:ins-1', target: 'customer:bob', attribute: { kind: 'card', value: '411111…1111' } },
  ],
  truncated: false,
  statistics: {},
  pathToFraudster: ['customer:ana', 'email:shared@example.com', 'customer:eve'],
};

describe('pathPairs and onPath', () => {
  it('puts exactly the links between consecutive path nodes on the path, either way round', () => {
    const pairs = pathPairs(network.pathToFraudster);
    expect(network.edges.map((edge) => onPath(pairs, edge))).toEqual([true, true, false, false]);
  });

  it('puts nothing on a path of one node or none', () => {
    for (const path of [null, undefined, [], ['customer:ana']]) expect(network.edges.some((edge) => onPath(pathPairs(path), edge))).toBe(false);
  });
});

describe('edgeAttribute', () => {
  const nodes = new Map(network.nodes.map((item) => [item.id, item]));

  it("reads the server's attribute when the link carries one", () => {
    expect(edgeAttribute(network.edges[2] as Network['edges'][number], nodes)).toEqual({ kind: 'card', value: '411111…1111' });
  });

  it('falls back on the end that is no customer, without the instrument prefix', () => {
    expect(edgeAttribute({ source: 'customer:bob', target: 'card:instrument:ins-1' }, nodes)).toEqual({ kind: 'card', value: 'ins-1' });
    expect(edgeAttribute({ source: 'email:shared@example.com', target: 'customer:eve' }, nodes)).toEqual({ kind: 'email', value: 'shared@example.com' });
  });
});

describe('isolate', () => {
  it('keeps the whole network for no kind', () => {
    expect(isolate(network, '')).toBe(network);
  });

  it('keeps the links of one kind, the nodes they join and the subject, and the path when all its links stay', () => {
    const shown = isolate(network, 'email');
    expect(shown.nodes.map((item) => item.id)).toEqual(['customer:ana', 'email:shared@example.com', 'customer:eve']);
    expect(shown.edges).toHaveLength(2);
    expect(shown.pathToFraudster).toEqual(network.pathToFraudster);
  });

  it('drops the path when its links are filtered out', () => {
    const shown = isolate(network, 'card');
    expect(shown.nodes.map((item) => item.id)).toEqual(['customer:ana', 'card:instrument:ins-1', 'customer:bob']);
    expect(shown.pathToFraudster).toBeNull();
  });

  it('keeps the subject alone for a kind no link has, and a path of the subject alone', () => {
    const shown = isolate({ ...network, pathToFraudster: ['customer:ana'] }, 'device');
    expect(shown.nodes.map((item) => item.id)).toEqual(['customer:ana']);
    expect(shown.edges).toEqual([]);
    expect(shown.pathToFraudster).toEqual(['customer:ana']);
  });
});

describe('kind names', () => {
  it("names every node kind of the graph engine's NODE_KINDS, which the console mirrors", async () => {
    const { NODE_KINDS } = await import('../../libs/graph-engine/src/node-kind');
    expect(Object.keys(KIND_NAMES).sort()).toEqual([...NODE_KINDS].sort());
    expect(kindName('card')).toBe('card');
    // Every kind but the custom ones has its own colour: a card is not drawn in the default grey.
    expect(Object.keys(KIND_COLOURS).sort()).toEqual(NODE_KINDS.filter((kind) => !kind.startsWith('customNode')).sort());
  });
});
