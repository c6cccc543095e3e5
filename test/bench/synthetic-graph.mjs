// The synthetic graph of the graph benchmarks (issue 4): realistic shape, same graph every run.
//
// Shape: customers in small networks (2–12 customers sharing a pool of about 2.3 attributes
// per customer: e-mails, phones, devices, cards and a few vehicles, documents, custom nodes),
// 1 % of the networks chained into rings of 20, two shared devices of 1,500 customers each
// (visited: they join thousands of networks, so traversals from there hit the 5,000-node cap),
// five hub devices of 6,000–18,000 customers (over 5,000 edges: skipped, maxDegreeHit), labels,
// chargebacks and tags on a few customers.
//
// Nodes are numbers; `kinds[n]` and `names[n]` give the kind and identity of node n. Edges are
// (opA[i], opB[i], opTime[i]) for i < ops, customer first. `states` are the label, tag and
// chargeback updates, in GraphChange form.

export const NOW = Date.UTC(2025, 0, 31);
const DAY = 86_400_000;

/** xorshift32: the same sequence for the same seed. */
export function seededRandom(seed) {
  let state = seed | 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  return { random, pick: (n) => Math.floor(random() * n) };
}

export function syntheticGraph({ nodes: TARGET_NODES, edges: TARGET_EDGES, seed }) {
  const { random, pick } = seededRandom(seed);
  const CUSTOMER = 'customer';
  const ATTRIBUTE_KINDS = ['email', 'email', 'email', 'email', 'email', 'phone', 'phone', 'phone', 'phone', 'device', 'device', 'device', 'device', 'device', 'card', 'card', 'card', 'card', 'card', 'vehicle', 'identification', 'customNode1'];
  const kinds = [];
  const names = [];
  const newNode = (kind) => {
    kinds.push(kind);
    names.push(`${kind[0]}${names.length}`);
    return names.length - 1;
  };
  let opA = new Int32Array(TARGET_EDGES + 1024);
  let opB = new Int32Array(TARGET_EDGES + 1024);
  let opTime = new Float64Array(TARGET_EDGES + 1024);
  let ops = 0;
  const planned = new Set();
  const plan = (a, b) => {
    const key = a < b ? a * 2 ** 21 + b : b * 2 ** 21 + a;
    if (planned.has(key) || ops >= TARGET_EDGES) return false;
    planned.add(key);
    opA[ops] = a;
    opB[ops] = b;
    // Most edges are old; a few in the last day, for the growth rates.
    opTime[ops] = NOW - (random() < 0.05 ? pick(DAY) : pick(400 * DAY));
    ops += 1;
    return true;
  };

  const groups = [];
  const HUBS = 5;
  const SHARED = 2;
  const reserve = HUBS + SHARED + 20_000;
  while (names.length < TARGET_NODES - reserve) {
    const size = 2 + pick(11);
    const customers = Array.from({ length: size }, () => newNode(CUSTOMER));
    const pool = Array.from({ length: Math.round(size * 2.3) }, () => newNode(ATTRIBUTE_KINDS[pick(ATTRIBUTE_KINDS.length)]));
    // Every attribute of the network belongs to at least one of its customers.
    for (const attribute of pool) plan(customers[pick(customers.length)], attribute);
    for (const customer of customers) {
      for (let k = 0; k < 4; k += 1) plan(customer, pool[pick(pool.length)]);
      if (random() < 0.003) plan(customer, newNode('chargeback'));
    }
    groups.push({ customers, pool });
  }
  // Rings: 1 % of the networks, chained in rings of 20.
  const ringGroups = groups.filter(() => random() < 0.01);
  for (let i = 0; i < ringGroups.length; i += 1) {
    const next = ringGroups[i % 20 === 19 || i + 1 === ringGroups.length ? i - (i % 20) : i + 1];
    const group = ringGroups[i];
    plan(group.customers[pick(group.customers.length)], next.pool[pick(next.pool.length)]);
  }
  const randomCustomer = () => {
    const group = groups[pick(groups.length)];
    return group.customers[pick(group.customers.length)];
  };
  for (let s = 0; s < SHARED; s += 1) {
    const device = newNode('device');
    for (let k = 0; k < 1500; k += 1) plan(randomCustomer(), device);
  }
  for (let h = 0; h < HUBS; h += 1) {
    const hub = newNode('device');
    for (let k = 0; k < 6000 + h * 3000; k += 1) plan(randomCustomer(), hub);
  }
  // Top up to the node target with one-customer networks (customer + e-mail), then the edge target
  // with more links inside the networks.
  while (names.length < TARGET_NODES - 1) {
    const customer = newNode(CUSTOMER);
    plan(customer, newNode('email'));
    groups.push({ customers: [customer], pool: [names.length - 1] });
  }
  if (names.length < TARGET_NODES) plan(randomCustomer(), newNode('phone'));
  while (ops < TARGET_EDGES) {
    const group = groups[pick(groups.length)];
    plan(group.customers[pick(group.customers.length)], group.pool[pick(group.pool.length)]);
  }
  planned.clear();
  const customerNodes = [];
  for (let n = 0; n < names.length; n += 1) if (kinds[n] === CUSTOMER) customerNodes.push(n);

  const states = [];
  for (const customer of customerNodes) {
    const roll = random();
    const customerId = names[customer];
    if (roll < 0.002) states.push({ type: 'label', customerId, label: 'FRAUDSTER', atMs: NOW });
    else if (roll < 0.012) states.push({ type: 'label', customerId, label: 'GENUINE', atMs: NOW });
    else if (roll < 0.03) states.push({ type: 'tags', customerId, tags: { vip: random() < 0.5, [`cohort-${pick(12)}`]: true }, atMs: NOW - pick(DAY * 30) });
  }
  for (let n = 0; n < names.length; n += 1) {
    if (kinds[n] === 'chargeback') states.push({ type: 'chargeback', chargebackId: names[n], forgiven: random() < 0.3, atMs: NOW });
  }
  return { kinds, names, opA, opB, opTime, ops, customerNodes, states, networks: groups.length, ringNetworks: ringGroups.length, SHARED, HUBS, random, pick };
}
