import fc from 'fast-check';
import type { ConnectFeatures, GraphCaps } from './connect-features';
import { GraphIndex } from './graph-index';
import { NODE_KINDS, type NodeKind } from './node-kind';
import { ReferenceGraph } from './test-support/reference-graph';

const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;

type Operation =
  | { op: 'link'; a: [NodeKind, string]; b: [NodeKind, string]; t: number }
  | { op: 'label'; customer: string; label: string | null }
  | { op: 'chargeback'; chargeback: string; forgiven: boolean }
  | { op: 'tags'; customer: string; tags: Record<string, boolean>; t: number };

// Few identities, so that random links share nodes and form networks, rings and hubs: mostly
// customer–attribute edges as ingestion makes them, some between any two nodes.
const customerId = fc.constantFrom('c0', 'c1', 'c2', 'c3', 'c4', 'c5');
const customer = customerId.map((id): [NodeKind, string] => ['customer', id]);
const attribute: fc.Arbitrary<[NodeKind, string]> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom<NodeKind>('email', 'device', 'card', 'phone', 'chargeback', 'supplier'), fc.constantFrom('0', '1', '2')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NODE_KINDS), fc.constantFrom('0', '1')) },
);
const anyNode = fc.oneof(customer, attribute);
// Times around now, with the growth window's boundaries (now − 24 h excluded, now included)
// and edges from the future, so every branch of the window test is drawn.
const time = fc.oneof(
  fc.constantFrom(NOW, NOW - 24 * HOUR, NOW - 24 * HOUR + 1, NOW + 1, NOW - 48 * HOUR),
  fc.integer({ min: NOW - 72 * HOUR, max: NOW + HOUR }),
);
const tagName = fc.constantFrom('vip', 'b', 'a', 'Z', 'é', '\u{1F600}', '\uFFFD');
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 10, arbitrary: fc.record({ op: fc.constant('link' as const), a: customer, b: attribute, t: time }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('link' as const), a: anyNode, b: anyNode, t: time }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('label' as const), customer: customerId, label: fc.constantFrom('FRAUDSTER', 'GENUINE', 'UNREVIEWED', null) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('chargeback' as const), chargeback: fc.constantFrom('0', '1', '2'), forgiven: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('tags' as const), customer: customerId, tags: fc.dictionary(tagName, fc.boolean(), { maxKeys: 3 }), t: time }) },
);
const caps: fc.Arbitrary<GraphCaps> = fc.record({
  maxNodes: fc.integer({ min: 1, max: 20 }),
  maxDegree: fc.integer({ min: 0, max: 6 }),
  generalEdgeDepth: fc.integer({ min: 0, max: 3 }),
  localEdgeDepth: fc.integer({ min: 0, max: 3 }),
});

function build(operations: Operation[]): { engine: GraphIndex; reference: ReferenceGraph } {
  const engine = new GraphIndex();
  const reference = new ReferenceGraph();
  for (const step of operations) {
    for (const graph of [engine, reference]) {
      switch (step.op) {
        case 'link':
          graph.link(step.a[0], step.a[1], step.b[0], step.b[1], step.t);
          break;
        case 'label':
          graph.setLabel(step.customer, step.label);
          break;
        case 'chargeback':
          graph.setChargeback(step.chargeback, { forgiven: step.forgiven });
          break;
        case 'tags':
          graph.setTags(step.customer, step.tags, step.t);
          break;
      }
    }
  }
  return { engine, reference };
}

/** Integers and flags exactly; means within floating-point rounding (sums run in another order). */
function expectSameFeatures(actual: ConnectFeatures, expected: ConnectFeatures): void {
  const differences: string[] = [];
  const names = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  for (const name of names) {
    const got = (actual as Record<string, unknown>)[name];
    const want = (expected as Record<string, unknown>)[name];
    const same =
      typeof want === 'number' && typeof got === 'number' && !Number.isInteger(want)
        ? Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want))
        : JSON.stringify(got) === JSON.stringify(want);
    if (!same) differences.push(`${name}: ${JSON.stringify(got)} instead of ${JSON.stringify(want)}`);
  }
  expect(differences).toEqual([]);
}

/** How often each cap and flag fired, so the test shows that the random graphs reach them. */
const seen = { maxNodesHit: 0, maxDegreeHit: 0, maxDepthReached: 0, fraudFound: 0, tags: 0, localEdges: 0, runs: 0 };
function tally(features: ConnectFeatures): void {
  seen.runs += 1;
  if (features.maxNodesHit) seen.maxNodesHit += 1;
  if (features.maxDegreeHit) seen.maxDegreeHit += 1;
  if (features.maxDepthReached) seen.maxDepthReached += 1;
  if (features.hopsToFraud > 0) seen.fraudFound += 1;
  if (features.tags.length > 1) seen.tags += 1;
  if (features.edgeLocalCount > 2 && !features.maxNodesHit) seen.localEdges += 1;
}

describe('connect agrees with the reference traversal on random graphs', () => {
  it('every statistic and flag, with small caps', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 5, maxLength: 60 }), customerId, fc.integer({ min: 0, max: 6 }), caps, (operations, start, depth, limits) => {
        const { engine, reference } = build(operations);
        const options = { depth, nowMs: NOW, caps: limits };
        const expected = reference.connect(start, options);
        tally(expected);
        expectSameFeatures(engine.connect(start, options), expected);
        // The scratch arrays are reused: a second call from elsewhere must not be affected by the first.
        expectSameFeatures(engine.connect('c0', options), reference.connect('c0', options));
      }),
      { numRuns: 3000 },
    );
    // Each case must have come up often enough to be tested, not just once.
    for (const [name, times] of Object.entries(seen)) expect({ name, often: times >= seen.runs / 100 }).toEqual({ name, often: true });
  });

  it('the voucher network: the same traversal\'s customers, in visiting order', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 5, maxLength: 60 }), customerId, fc.integer({ min: 0, max: 6 }), caps, (operations, start, depth, limits) => {
        const { engine, reference } = build(operations);
        expect(engine.customersWithin(start, depth, limits)).toEqual(reference.customersWithin(start, depth, limits));
      }),
      { numRuns: 500 },
    );
  });

  it('network features: hops, size, the customers sharing each attribute and the fraudsters among them', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 5, maxLength: 60 }), customerId, caps, (operations, start, limits) => {
        const { engine, reference } = build(operations);
        const options = { depth: 4, nowMs: NOW, caps: limits };
        const features = engine.networkFeatures(start, options);
        const expected = reference.connect(start, options);
        expect(features.hopsToFraud).toBe(expected.hopsToFraud);
        expect(features.maxNodesHit).toBe(expected.maxNodesHit);
        expect(features.networkGrowthRate).toBeCloseTo(expected.edgeGeneralGrowthRate, 12);
        if (!expected.maxNodesHit) expect(features.networkSize).toBe(expected.count);
        expect(features.networkCustomers).toBe(reference.customersWithin(start, 4, limits).length);
        const shared = reference.sharedAttributes(start);
        expect(features.shared).toEqual(shared);
        for (const kind of ['device', 'card', 'email', 'phone'] as const) {
          const ofKind = shared.filter((attribute) => attribute.kind === kind);
          expect(features.maxFraudCustomers[kind]).toBe(Math.max(0, ...ofKind.map((attribute) => attribute.fraudCustomers)));
          expect(features.maxFraudRate[kind]).toBe(Math.max(0, ...ofKind.map((attribute) => (attribute.otherCustomers === 0 ? 0 : attribute.fraudCustomers / attribute.otherCustomers))));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('at the default caps on random graphs too', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 80 }), customerId, fc.integer({ min: 1, max: 20 }), (operations, start, depth) => {
        const { engine, reference } = build(operations);
        expectSameFeatures(engine.connect(start, { depth, nowMs: NOW }), reference.connect(start, { depth, nowMs: NOW }));
      }),
      { numRuns: 300 },
    );
  });
});
