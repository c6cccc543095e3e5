import type { ConnectFeaturesResponseDto } from '@ringfence/contracts';
import type { ConnectFeatures } from './connect-features';
import { GraphIndex } from './graph-index';

const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (depth: number) => ({ depth, nowMs: NOW });

/** A customer linked to a device that `others` further customers share. */
function deviceShared(others: number): GraphIndex {
  const graph = new GraphIndex();
  graph.link('customer', 'start', 'device', 'd', NOW);
  for (let i = 0; i < others; i += 1) graph.link('customer', `c${i}`, 'device', 'd', NOW);
  return graph;
}

describe('GraphIndex: ADR-0004 rule by rule', () => {
  it('answers with exactly the fields of the contracts\' features answer', () => {
    type Envelope = 'timestamp' | 'clientID' | 'customerID';
    // Both directions compile only when the names and types match.
    const features: ConnectFeatures = new GraphIndex().connect('c', at(20));
    const asDto: Omit<ConnectFeaturesResponseDto, Envelope> = features;
    const back: ConnectFeatures = asDto;
    expect(Object.keys(back)).toHaveLength(14 + 1 + 2 + 1 + 14 * 3 + 3 + 6 + 1 + 1);
  });

  it('two customers sharing an e-mail are 2 apart; the start is at depth 0', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'a', 'email', 'x@example.com', NOW - DAY * 2);
    graph.link('customer', 'b', 'email', 'x@example.com', NOW - DAY * 2);
    graph.setLabel('b', 'FRAUDSTER');
    graph.setTags('b', { shared: true }, NOW);
    graph.setTags('a', { own: true }, NOW);
    const features = graph.connect('a', at(20));
    expect(features).toMatchObject({ count: 3, customerCount: 2, emailCount: 1, hopsToFraud: 2, reviewedFraudsterCount: 1, maxDepthReached: false });
    expect(features.tags).toEqual([{ tagName: 'own', depth: 0 }, { tagName: 'shared', depth: 2 }]);
    expect(graph.connect('a', at(1))).toMatchObject({ count: 2, hopsToFraud: -1, maxDepthReached: true, tags: [{ tagName: 'own', depth: 0 }] });
  });

  it('hopsToFraud is 0 for a fraudster start and -1 when none is visited', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'a', 'device', 'd', NOW);
    graph.link('customer', 'b', 'device', 'd', NOW);
    expect(graph.connect('a', at(20)).hopsToFraud).toBe(-1);
    graph.setLabel('a', 'FRAUDSTER');
    expect(graph.connect('a', at(20)).hopsToFraud).toBe(0);
    expect(graph.connect('b', at(20)).hopsToFraud).toBe(2);
  });

  it('a label replaces the previous one', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'a', 'card', 'k', NOW);
    graph.link('customer', 'b', 'card', 'k', NOW);
    graph.setLabel('b', 'FRAUDSTER');
    graph.setLabel('b', 'GENUINE');
    expect(graph.connect('a', at(20))).toMatchObject({ hopsToFraud: -1, reviewedFraudsterCount: 0, reviewedGenuineCount: 1 });
    expect(graph.labelOf('b')).toBe('GENUINE');
    graph.setLabel('b', 'UNREVIEWED');
    expect(graph.connect('a', at(20))).toMatchObject({ reviewedFraudsterCount: 0, reviewedGenuineCount: 0 });
  });

  it('an unforgiven chargeback makes its customer a fraudster until it is forgiven', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'a', 'phone', '+447700900123', NOW);
    graph.link('customer', 'b', 'phone', '+447700900123', NOW);
    graph.link('customer', 'b', 'chargeback', 'cb1', NOW);
    expect(graph.connect('a', at(20))).toMatchObject({ hopsToFraud: 2, chargebackCount: 1, reviewedFraudsterCount: 0 });
    graph.setChargeback('cb1', { forgiven: true });
    expect(graph.connect('a', at(20)).hopsToFraud).toBe(-1);
    expect(graph.isFraudster('b')).toBe(false);
    graph.setChargeback('cb1', { forgiven: false });
    expect(graph.connect('a', at(20)).hopsToFraud).toBe(2);
    // Forgiven before the link: linking it marks nobody.
    graph.setChargeback('cb2', { forgiven: true });
    graph.link('customer', 'c', 'chargeback', 'cb2', NOW);
    expect(graph.isFraudster('c')).toBe(false);
  });

  it('a node of exactly maxDegree edges is visited; one more and it is skipped with maxDegreeHit', () => {
    const exactly = deviceShared(4999).connect('start', { ...at(20), caps: { maxNodes: 10_000 } });
    expect(exactly).toMatchObject({ maxDegreeHit: false, deviceCount: 1, customerCount: 5000, deviceDegreeMax: 5000, maxNodesHit: false });
    const over = deviceShared(5000).connect('start', at(20));
    expect(over).toMatchObject({ maxDegreeHit: true, deviceCount: 0, customerCount: 1, count: 1, customerDegreeMean: 1, maxNodesHit: false, maxDepthReached: false });
  });

  it('the start is visited and expanded whatever its degree', () => {
    const graph = new GraphIndex();
    for (let i = 0; i < 5001; i += 1) graph.link('customer', 'hub', 'email', `e${i}@x`, NOW);
    expect(graph.connect('hub', at(1))).toMatchObject({ maxNodesHit: true, customerDegreeMax: 5001 });
    expect(graph.connect('hub', { ...at(1), caps: { maxNodes: 6000 } })).toMatchObject({ customerCount: 1, emailCount: 5001, maxNodesHit: false, customerDegreeMax: 5001 });
  });

  it('5000 visited nodes and nothing further is not maxNodesHit; one eligible node more is, with saturated counts', () => {
    // start + device + 4998 customers = 5000 visited.
    const full = deviceShared(4998).connect('start', at(20));
    expect(full).toMatchObject({ count: 5000, maxNodesHit: false, customerCount: 4999 });
    const over = deviceShared(4999);
    over.link('customer', 'start', 'chargeback', 'cb', NOW);
    const features = over.connect('start', at(20));
    expect(features.maxNodesHit).toBe(true);
    const counts = Object.entries(features).filter(([name]) => name.endsWith('Count'));
    expect(counts.length).toBe(14 + 2 + 2);
    for (const [, value] of counts) expect(value).toBe(5000);
    expect(features.count).toBe(5000 * 14);
    expect(features.hopsToFraud).toBe(0);
  });

  it('edge statistics: general ≤ 6 and local ≤ 2 by both endpoints\' depths; the growth window is (now − 24 h, now]', () => {
    const graph = new GraphIndex();
    // A chain a - e1 - b - e2 - c - e3 - d: depths 0..6.
    graph.link('customer', 'a', 'email', 'e1', NOW - DAY); // excluded from the window
    graph.link('customer', 'b', 'email', 'e1', NOW - DAY + 1); // included
    graph.link('customer', 'b', 'email', 'e2', NOW); // included
    graph.link('customer', 'c', 'email', 'e2', NOW + 1); // after now: excluded
    graph.link('customer', 'c', 'email', 'e3', NOW - 2 * DAY);
    graph.link('customer', 'd', 'email', 'e3', NOW - 2 * DAY);
    graph.link('customer', 'd', 'email', 'e4', NOW - 2 * DAY); // e4 at depth 7
    const features = graph.connect('a', at(20));
    expect(features).toMatchObject({ edgeLocalCount: 2, edgeGeneralCount: 6 });
    expect(features.edgeLocalGrowthRate).toBeCloseTo(1 / 24, 12);
    expect(features.edgeGeneralGrowthRate).toBeCloseTo(2 / 24, 12);
    expect(features.edgeLocalMeanAge).toBeCloseTo((86400 + 86399.999) / 2, 6);
    expect(features.edgeGeneralMeanAge).toBeCloseTo((86400 + 86399.999 + 0 - 0.001 + 172800 * 2) / 6, 6);
    expect(graph.connect('a', { ...at(20), caps: { generalEdgeDepth: 1, localEdgeDepth: 0 } })).toMatchObject({ edgeGeneralCount: 1, edgeLocalCount: 0, edgeLocalMeanAge: 0, edgeLocalGrowthRate: 0 });
  });

  it('edge statistics when maxNodesHit cuts an expansion short: the edges after the cut still count', () => {
    const graph = new GraphIndex();
    // a visits e1 and e2 (3 nodes, the cap); e1's expansion meets device x and stops there, before
    // its edge to e2, which no expanded node reaches otherwise. c hangs off e2, never visited.
    graph.link('customer', 'a', 'email', 'e1', NOW - 1000_000);
    graph.link('customer', 'a', 'phone', 'e2', NOW - 2000_000);
    graph.link('email', 'e1', 'device', 'x', NOW - 3000_000);
    graph.link('email', 'e1', 'phone', 'e2', NOW - 6000_000);
    graph.link('phone', 'e2', 'customer', 'c', NOW);
    const features = graph.connect('a', { ...at(20), caps: { maxNodes: 3 } });
    expect(features).toMatchObject({ maxNodesHit: true, edgeGeneralCount: 3, edgeLocalCount: 3 });
    expect(features.edgeGeneralMeanAge).toBeCloseTo((1000 + 2000 + 6000) / 3, 9);
    expect(features.edgeLocalGrowthRate).toBeCloseTo(3 / 24, 12);
    // With the cap at 4, x is visited too and the cut comes in e2's expansion, at c (not visited).
    const wider = graph.connect('a', { ...at(20), caps: { maxNodes: 4 } });
    expect(wider).toMatchObject({ maxNodesHit: true });
    expect(wider.edgeGeneralMeanAge).toBeCloseTo((1000 + 2000 + 3000 + 6000) / 4, 9);
  });

  it('an edge keeps its earliest first-seen time, whatever order the payloads arrive in', () => {
    const graph = new GraphIndex();
    expect(graph.link('customer', 'a', 'device', 'd', NOW - HOUR)).toBe('added');
    expect(graph.link('device', 'd', 'customer', 'a', NOW - 3 * HOUR)).toBe('earlier');
    expect(graph.link('customer', 'a', 'device', 'd', NOW - 2 * HOUR)).toBe('unchanged');
    expect(graph.link('customer', 'a', 'device', 'd', NOW - 3 * HOUR)).toBe('unchanged');
    expect(graph.edgeCount).toBe(1);
    expect(graph.neighboursOf('device', 'd')).toEqual([{ kind: 'customer', identity: 'a', firstSeenMs: NOW - 3 * HOUR }]);
    expect(graph.connect('a', at(20)).edgeLocalMeanAge).toBe(3 * 3600);
  });

  it('degree statistics over visited nodes of full degree; meanDegree over all visited nodes', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'a', 'card', 'k1', NOW);
    graph.link('customer', 'a', 'card', 'k2', NOW);
    graph.link('customer', 'b', 'card', 'k2', NOW);
    graph.link('customer', 'b', 'device', 'far', NOW);
    const features = graph.connect('a', at(1));
    expect(features).toMatchObject({ cardDegreeMin: 1, cardDegreeMax: 2, cardDegreeMean: 1.5, customerDegreeMin: 2, customerDegreeMax: 2, deviceDegreeMin: 0, deviceDegreeMean: 0, deviceDegreeMax: 0 });
    expect(features.meanDegree).toBeCloseTo((2 + 1 + 2) / 3, 12);
  });

  it('tags: newest value per name wins, false tags are not listed, sorted by depth then code point', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'a', 'device', 'd', NOW);
    graph.link('customer', 'b', 'device', 'd', NOW);
    graph.setTags('a', { zeta: true, alpha: true, gone: true }, NOW);
    graph.setTags('a', { gone: false }, NOW + 1);
    graph.setTags('a', { zeta: false }, NOW - 1); // older: ignored
    graph.setTags('b', { '\u{1F600}': true, '\uFFFD': true, alpha: true }, NOW);
    expect(graph.connect('a', at(20)).tags).toEqual([
      { tagName: 'alpha', depth: 0 },
      { tagName: 'zeta', depth: 0 },
      // U+FFFD sorts before U+1F600 by code point (not by UTF-16 unit).
      { tagName: '\uFFFD', depth: 2 },
      { tagName: '\u{1F600}', depth: 2 },
    ]);
  });

  it('custom nodes: the first five distinct nodeTypes take slots 1..5 in order; a sixth gets none', () => {
    const graph = new GraphIndex();
    expect(['store', 'loyalty', 'store', 'iban', 'school', 'club', 'extra'].map((type) => graph.customNodeKind(type))).toEqual([
      'customNode1',
      'customNode2',
      'customNode1',
      'customNode3',
      'customNode4',
      'customNode5',
      null,
    ]);
    expect(graph.customNodeTypes()).toEqual(['store', 'loyalty', 'iban', 'school', 'club']);
    const restored = new GraphIndex({ customNodeTypes: ['iban', 'store'] });
    expect(restored.customNodeKind('store')).toBe('customNode2');
    expect(restored.customNodeKind('new')).toBe('customNode3');
    graph.link('customer', 'a', graph.customNodeKind('iban')!, 'GB00', NOW);
    expect(graph.connect('a', at(20))).toMatchObject({ customNode3Count: 1, customNode3DegreeMax: 1, count: 2 });
  });

  it('a customer the index does not know is a lone node, and asking does not create it', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'other', 'email', 'e', NOW);
    const features = graph.connect('unknown', at(20));
    expect(features).toMatchObject({ count: 1, customerCount: 1, emailCount: 0, hopsToFraud: -1, maxDepthReached: false, customerDegreeMax: 0, meanDegree: 0, edgeGeneralCount: 0, tags: [] });
    expect(graph.find('customer', 'unknown')).toBeUndefined();
    expect(graph.nodeCount).toBe(2);
    expect(graph.customersWithin('unknown', 10)).toEqual(['unknown']);
    // The scratch node does not leak into later answers.
    graph.link('customer', 'next', 'email', 'e', NOW);
    expect(graph.connect('other', at(20))).toMatchObject({ count: 3, customerCount: 2 });
  });

  it('the voucher network and network features', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'a', 'device', 'd', NOW);
    graph.link('customer', 'b', 'device', 'd', NOW);
    graph.link('customer', 'c', 'device', 'd', NOW);
    graph.link('customer', 'c', 'card', 'k', NOW);
    graph.link('customer', 'e', 'card', 'k', NOW);
    graph.link('customer', 'a', 'email', 'a@x', NOW);
    expect(graph.customersWithin('a', 2)).toEqual(['a', 'b', 'c']);
    expect(graph.customersWithin('a', 4)).toEqual(['a', 'b', 'c', 'e']);
    graph.setLabel('e', 'FRAUDSTER');
    const features = graph.networkFeatures('a', at(10));
    expect(features).toMatchObject({
      hopsToFraud: 4,
      networkSize: 7,
      networkCustomers: 4,
      maxNodesHit: false,
      shared: [
        { kind: 'device', identity: 'd', otherCustomers: 2, fraudCustomers: 0 },
        { kind: 'email', identity: 'a@x', otherCustomers: 0, fraudCustomers: 0 },
      ],
      maxOtherCustomers: { device: 2, card: 0, email: 0, phone: 0 },
    });
    expect(features.networkGrowthRate).toBeCloseTo(6 / 24, 12);
  });

  it('fraud rates of the subject\'s devices and cards: the share of fraudsters among their other customers, as known now', () => {
    const graph = new GraphIndex();
    for (const customer of ['a', 'b', 'c', 'd', 'e']) graph.link('customer', customer, 'device', 'shared-device', NOW);
    graph.link('customer', 'a', 'device', 'own-device', NOW);
    graph.link('customer', 'a', 'card', 'card-1', NOW);
    graph.link('customer', 'f', 'card', 'card-1', NOW);
    const none = { device: 0, card: 0, email: 0, phone: 0 };
    expect(graph.networkFeatures('a', at(10))).toMatchObject({ maxFraudCustomers: none, maxFraudRate: none });

    // A label given after the device was used counts from then on.
    graph.setLabel('b', 'FRAUDSTER');
    graph.link('customer', 'c', 'chargeback', 'cb-c', NOW);
    graph.setChargeback('cb-c', { forgiven: false });
    const features = graph.networkFeatures('a', at(10));
    expect(features.shared).toEqual(
      expect.arrayContaining([
        { kind: 'device', identity: 'shared-device', otherCustomers: 4, fraudCustomers: 2 },
        { kind: 'device', identity: 'own-device', otherCustomers: 0, fraudCustomers: 0 },
        { kind: 'card', identity: 'card-1', otherCustomers: 1, fraudCustomers: 0 },
      ]),
    );
    expect(features).toMatchObject({ maxFraudCustomers: { ...none, device: 2 }, maxFraudRate: { ...none, device: 0.5 } });

    // The subject itself never counts, and a forgiven chargeback or a GENUINE label no longer does.
    graph.setLabel('a', 'FRAUDSTER');
    graph.setChargeback('cb-c', { forgiven: true });
    graph.setLabel('f', 'FRAUDSTER');
    expect(graph.networkFeatures('a', at(10))).toMatchObject({ maxFraudCustomers: { ...none, device: 1, card: 1 }, maxFraudRate: { ...none, device: 0.25, card: 1 } });
    graph.setLabel('b', 'GENUINE');
    expect(graph.networkFeatures('a', at(10)).maxFraudRate).toEqual({ ...none, card: 1 });
  });

  it("a supplier's network: the same traversal from the supplier, fraud among its orders' customers and those sharing its details", () => {
    const graph = new GraphIndex();
    // An order links its customer and supplier; the supplier's payout card is also a customer's card.
    graph.link('customer', 'buyer', 'supplier', 's', NOW);
    graph.link('supplier', 's', 'card', 'k', NOW);
    graph.link('customer', 'card-sharer', 'card', 'k', NOW);
    graph.link('supplier', 's', 'email', 's@x', NOW);
    expect(graph.networkFeatures('s', at(10), 'supplier')).toMatchObject({
      hopsToFraud: -1,
      networkSize: 5,
      networkCustomers: 2,
      maxOtherCustomers: { device: 0, card: 1, email: 0, phone: 0 },
    });
    graph.setLabel('card-sharer', 'FRAUDSTER');
    expect(graph.networkFeatures('s', at(10), 'supplier').hopsToFraud).toBe(2);
    // A customer of one of its orders with an unforgiven chargeback is one hop away.
    graph.link('customer', 'buyer', 'chargeback', 'cb-1', NOW);
    graph.setChargeback('cb-1', { forgiven: false });
    expect(graph.networkFeatures('s', at(10), 'supplier').hopsToFraud).toBe(1);
    graph.setChargeback('cb-1', { forgiven: true });
    expect(graph.networkFeatures('s', at(10), 'supplier').hopsToFraud).toBe(2);
    // A customer with the supplier's id is another node.
    expect(graph.networkFeatures('s', at(10))).toMatchObject({ hopsToFraud: -1, networkSize: 1, networkCustomers: 1 });
  });

  it('an unknown supplier is a lone node with no customers, and asking does not create it', () => {
    const graph = new GraphIndex();
    graph.link('customer', 'c', 'supplier', 'known', NOW);
    expect(graph.networkFeatures('unknown', at(10), 'supplier')).toMatchObject({ hopsToFraud: -1, networkSize: 1, networkCustomers: 0, shared: [] });
    expect(graph.find('supplier', 'unknown')).toBeUndefined();
    expect(graph.nodeCount).toBe(2);
  });
});
