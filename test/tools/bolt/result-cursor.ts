import type { QueryResult, WriteCounters } from '@grafeo-db/js';
import { toPackStream } from './grafeo-values';
import type { PackStreamMap, PackStreamValue } from './packstream';

/**
 * The rows of one query, handed out a batch at a time (PULL n) and converted only when they
 * are sent, so a large result costs no more memory than Grafeo's own copy of it.
 */
export class ResultCursor {
  private position = 0;
  private readonly columns: string[];
  private readonly length: number;
  private readonly counters: WriteCounters;

  constructor(private readonly result: QueryResult) {
    this.columns = result.columns;
    this.length = result.length;
    this.counters = result.counters;
  }

  get fields(): string[] {
    return this.columns;
  }

  get hasMore(): boolean {
    return this.position < this.length;
  }

  /** The next row as a Bolt RECORD's values; only while `hasMore`. */
  nextRecord(): PackStreamValue[] {
    const row = this.result.get(this.position++);
    return this.columns.map((column) => toPackStream(row[column]));
  }

  skip(count: number): void {
    this.position = Math.min(this.position + count, this.length);
  }

  /** Whether the query changed the graph: what Bolt's query type and Neo4j's stats report. */
  get wroteData(): boolean {
    return Object.values(this.counters).some((count) => count > 0);
  }

  /** Neo4j's `stats` of the final SUCCESS, non-zero counters only (as Neo4j sends them). */
  statistics(): PackStreamMap {
    const counters = this.counters;
    const stats: Array<[string, number]> = [
      ['nodes-created', counters.nodesCreated],
      ['nodes-deleted', counters.nodesDeleted],
      ['relationships-created', counters.edgesCreated],
      ['relationships-deleted', counters.edgesDeleted],
      ['properties-set', counters.propertiesSet],
      ['labels-added', counters.labelsAdded],
      ['labels-removed', counters.labelsRemoved],
    ];
    return Object.fromEntries(stats.filter(([, count]) => count > 0).map(([name, count]) => [name, BigInt(count)]));
  }
}
