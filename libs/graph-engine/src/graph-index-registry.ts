import { GraphIndex, type GraphIndexOptions } from './graph-index';

/** The graph of each tenant: one index per account and environment, created on first use. */
export class GraphIndexRegistry {
  private readonly indexes = new Map<string, GraphIndex>();

  constructor(private readonly optionsFor: (accountId: string, environment: string) => GraphIndexOptions = () => ({})) {}

  /** The tenant's index, created empty (with its stored custom-node slots) when new. */
  get(accountId: string, environment: string): GraphIndex {
    const key = tenantKey(accountId, environment);
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = new GraphIndex(this.optionsFor(accountId, environment));
      this.indexes.set(key, index);
    }
    return index;
  }

  /** The tenant's index if it exists, without creating one. */
  peek(accountId: string, environment: string): GraphIndex | undefined {
    return this.indexes.get(tenantKey(accountId, environment));
  }

  /** Forgets a tenant's index (for a rebuild from the store of record). */
  drop(accountId: string, environment: string): boolean {
    return this.indexes.delete(tenantKey(accountId, environment));
  }

  get size(): number {
    return this.indexes.size;
  }
}

// JSON of the pair: no separator character can make two tenants collide.
function tenantKey(accountId: string, environment: string): string {
  return JSON.stringify([accountId, environment]);
}
