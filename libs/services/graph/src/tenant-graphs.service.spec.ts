import type { MessageEnvelope } from '@ringfence/contracts';
import type { GraphChange, GraphScope, GraphStore } from '@ringfence/graph-engine';
import { createLogger } from '@ringfence/platform';
import type { ReadinessCheck } from '@ringfence/service-runtime';
import { type GraphBounds, TenantGraphs } from './tenant-graphs.service';

const NOW = 1_700_000_000_000;
const link = (customerId: string, email: string): GraphChange => ({
  type: 'link',
  a: { kind: 'customer', identity: customerId },
  b: { kind: 'email', identity: email },
  firstSeenMs: NOW,
});

/** A store whose load waits until the test lets it go, to see what happens meanwhile. */
class ControlledStore implements GraphStore {
  readonly written: GraphChange[] = [];
  release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));

  constructor(private readonly stored: Record<string, { customNodeTypes: string[]; changes: GraphChange[] }>) {}

  async write(_scope: GraphScope, changes: readonly GraphChange[]): Promise<void> {
    this.written.push(...changes);
  }

  async scopes(): Promise<GraphScope[]> {
    return Object.keys(this.stored).map((key) => {
      const [accountId, environment] = JSON.parse(key) as [string, string];
      return { accountId, environment };
    });
  }

  async customNodeTypes(scope: GraphScope): Promise<string[]> {
    return this.stored[JSON.stringify([scope.accountId, scope.environment])].customNodeTypes;
  }

  async *load(scope: GraphScope): AsyncIterable<GraphChange[]> {
    await this.released;
    yield this.stored[JSON.stringify([scope.accountId, scope.environment])].changes;
  }
}

const UNBOUNDED: GraphBounds = { graphMaxNodes: 1_000_000_000, accountSharePercent: 100 };

function setup(store: ControlledStore, bounds: GraphBounds = UNBOUNDED) {
  const checks: ReadinessCheck[] = [];
  const graphs = new TenantGraphs(store, createLogger({ level: 'silent', service: 'test' }), checks, bounds);
  graphs.onModuleInit();
  return { graphs, readiness: () => checks.find((check) => check.name === 'graph')!.isReady() };
}

describe(TenantGraphs.name, () => {
  it('rebuilds every tenant from the store, with its custom-node slots, and is not ready until then', async () => {
    const store = new ControlledStore({
      [JSON.stringify(['acc_1', 'live'])]: {
        customNodeTypes: ['driver', 'store'],
        changes: [link('c1', 'shared@x.io'), link('c2', 'shared@x.io')],
      },
    });
    const { graphs, readiness } = setup(store);
    graphs.onApplicationBootstrap();
    await expect(readiness()).resolves.toBe(false);
    // A query during the rebuild waits for it rather than answering from half a graph.
    const answer = graphs.get('acc_1', 'live').then((graph) => graph.index.connect('c1', { depth: 2, nowMs: NOW }).customerCount);
    store.release();
    await expect(answer).resolves.toBe(2);
    await expect(readiness()).resolves.toBe(true);
    const graph = await graphs.get('acc_1', 'live');
    expect(graph.index.customNodeTypes()).toEqual(['driver', 'store']);
    expect((await graphs.get('acc_1', 'test')).index.nodeCount).toBe(0);
  });

  it('reports what it rebuilt', async () => {
    const store = new ControlledStore({ [JSON.stringify(['acc_1', 'test'])]: { customNodeTypes: [], changes: [link('c1', 'a@x.io')] } });
    const { graphs } = setup(store);
    store.release();
    await expect(graphs.rebuild()).resolves.toMatchObject({ tenants: 1, nodes: 2, edges: 1, changes: 1 });
  });

  it('applies live changes on top of the rebuilt graph', async () => {
    const store = new ControlledStore({ [JSON.stringify(['acc_1', 'live'])]: { customNodeTypes: [], changes: [link('c1', 'shared@x.io')] } });
    const { graphs } = setup(store);
    store.release();
    const { graph } = await graphs.apply({ accountId: 'acc_1', environment: 'live' }, [link('c2', 'shared@x.io')]);
    expect(graph.index.connect('c2', { depth: 2, nowMs: NOW }).customerCount).toBe(2);
  });

  describe("an account's share (ADR-0016)", () => {
    // 10 % of 100 nodes: 10 per account, both data sets together.
    const SHARE: GraphBounds = { graphMaxNodes: 100, accountSharePercent: 10 };
    const FLOODER = { accountId: 'acc_flooder', environment: 'live' };
    const FLOODER_SANDBOX = { accountId: 'acc_flooder', environment: 'test' };
    const NEIGHBOUR = { accountId: 'acc_neighbour', environment: 'live' };
    const request = (scope: { accountId: string; environment: string }, traceId: string) => ({ ...scope, traceId }) as MessageEnvelope<unknown>;

    async function ready(bounds = SHARE, stored: Record<string, { customNodeTypes: string[]; changes: GraphChange[] }> = {}) {
      const store = new ControlledStore(stored);
      const { graphs } = setup(store, bounds);
      store.release();
      await graphs.rebuild();
      return graphs;
    }

    it('leaves out the changes that would add a node past the share, applies the others of the same event, and answers that request 429', async () => {
      const graphs = await ready();
      await graphs.apply(NEIGHBOUR, [link('n1', 'shared@n.io'), link('n2', 'shared@n.io')]);
      for (let i = 0; i < 4; i += 1) await graphs.apply(i % 2 === 0 ? FLOODER : FLOODER_SANDBOX, [link(`f${i}`, `f${i}@f.io`)], `trace-${i}`);

      // 8 nodes held; this event's first link adds 2 (10: the share), its second would add more, its third adds none.
      const outcome = await graphs.apply(FLOODER, [link('f8', 'f8@f.io'), link('f9', 'f9@f.io'), link('f8', 'f0@f.io')], 'trace-past');

      expect(outcome.refused).toBe(1);
      expect(outcome.applied).toEqual([link('f8', 'f8@f.io'), link('f8', 'f0@f.io')]);
      expect(outcome.graph.index.find('customer', 'f9')).toBeUndefined();
      expect(outcome.graph.index.degreeOf('email', 'f0@f.io')).toBe(2);
      expect(() => graphs.refuseWhenOverShare(request(FLOODER, 'trace-past'))).toThrow(
        expect.objectContaining({ status: 429, message: expect.stringMatching(/^the account holds its share of the graph's nodes \(10: ACCOUNT_SHARE_PERCENT of GRAPH_MAX_NODES\); this request names/) }),
      );
      expect(() => graphs.refuseWhenOverShare(request(FLOODER, 'trace-0'))).not.toThrow();
      expect(() => graphs.refuseWhenOverShare(request(FLOODER_SANDBOX, 'trace-past'))).not.toThrow();

      // The neighbour's graph is whole and it still adds nodes.
      const neighbour = await graphs.get(NEIGHBOUR.accountId, NEIGHBOUR.environment);
      expect(neighbour.index.connect('n1', { depth: 2, nowMs: NOW }).customerCount).toBe(2);
      const more = await graphs.apply(NEIGHBOUR, [link('n3', 'shared@n.io')], 'trace-n');
      expect(more.refused).toBe(0);
      expect(neighbour.index.connect('n1', { depth: 2, nowMs: NOW }).customerCount).toBe(3);
    });

    it('adds no node past GRAPH_MAX_NODES over every account, even within an account’s share', async () => {
      const graphs = await ready({ graphMaxNodes: 6, accountSharePercent: 100 });
      await graphs.apply(FLOODER, [link('f1', 'f1@f.io'), link('f2', 'f2@f.io')]);
      await graphs.apply(NEIGHBOUR, [link('n1', 'n1@n.io')]);

      const outcome = await graphs.apply(NEIGHBOUR, [link('n2', 'n1@n.io')], 'trace-full');

      expect(outcome.refused).toBe(1);
      expect(() => graphs.refuseWhenOverShare(request(NEIGHBOUR, 'trace-full'))).toThrow(expect.objectContaining({ status: 429, message: expect.stringMatching(/^the account holds the graph's bound \(GRAPH_MAX_NODES, 6 nodes/) }));
    });

    it('rebuilds every stored node whatever the share (accepted data is kept), and adds none past it', async () => {
      const graphs = await ready(SHARE, { [JSON.stringify(['acc_flooder', 'live'])]: { customNodeTypes: [], changes: Array.from({ length: 8 }, (_, i) => link(`f${i}`, `f${i}@f.io`)) } });

      expect((await graphs.get('acc_flooder', 'live')).index.nodeCount).toBe(16);
      expect((await graphs.apply(FLOODER_SANDBOX, [link('s1', 's1@f.io')])).refused).toBe(1);
    });
  });
});

describe(`${TenantGraphs.name} when the store cannot be read`, () => {
  it('stays not ready and tries again until it can', async () => {
    jest.useFakeTimers();
    try {
      const store = new ControlledStore({ [JSON.stringify(['acc_1', 'live'])]: { customNodeTypes: [], changes: [link('c1', 'a@x.io')] } });
      store.release();
      const scopes = jest.spyOn(store, 'scopes').mockRejectedValueOnce(new Error('connection refused'));
      const { graphs, readiness } = setup(store);
      const rebuilt = graphs.rebuild();
      await jest.advanceTimersByTimeAsync(0);
      await expect(readiness()).resolves.toBe(false);
      await jest.advanceTimersByTimeAsync(500);
      await expect(rebuilt).resolves.toMatchObject({ tenants: 1, edges: 1 });
      expect(scopes).toHaveBeenCalledTimes(2);
      await expect(readiness()).resolves.toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
