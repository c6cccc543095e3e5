import type { GraphChange, GraphScope, GraphStore } from '@ringfence/graph-engine';
import { createLogger } from '@ringfence/platform';
import type { ReadinessCheck } from '@ringfence/service-runtime';
import { TenantGraphs } from './tenant-graphs.service';

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

function setup(store: ControlledStore) {
  const checks: ReadinessCheck[] = [];
  const graphs = new TenantGraphs(store, createLogger({ level: 'silent', service: 'test' }), checks);
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
    const graph = await graphs.apply({ accountId: 'acc_1', environment: 'live' }, [link('c2', 'shared@x.io')]);
    expect(graph.index.connect('c2', { depth: 2, nowMs: NOW }).customerCount).toBe(2);
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
