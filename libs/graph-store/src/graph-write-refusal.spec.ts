import type { GraphChange } from '@ringfence/graph-engine';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { Neo4jError, error as neo4jErrors } from 'neo4j-driver';
import { isGraphWriteRefusal } from './graph-write-refusal';
import { TypeOrmGraphStore } from './typeorm/typeorm-graph.store';
import { GRAPH_STORE_SCHEMA } from './graph-store.schema';

const neo4jError = (code: string) => new Neo4jError(`neo4j said ${code}`, code, '50N42', 'error: general processing exception - unexpected error');
const link = (firstSeenMs: number): GraphChange => ({
  type: 'link',
  a: { kind: 'customer', identity: 'c1' },
  b: { kind: 'email', identity: 'ada@example.com' },
  firstSeenMs,
});

describe(isGraphWriteRefusal.name, () => {
  it.each(['Neo.ClientError.Statement.ArgumentError', 'Neo.ClientError.Statement.TypeError', 'Neo.ClientError.Schema.ConstraintValidationFailed'])(
    'blames the changes for Neo4j’s %s',
    (code) => {
      expect(isGraphWriteRefusal(neo4jError(code))).toBe(true);
      expect(isGraphWriteRefusal(new Error('the write failed', { cause: neo4jError(code) }))).toBe(true);
    },
  );

  it.each([
    neo4jErrors.SERVICE_UNAVAILABLE,
    neo4jErrors.SESSION_EXPIRED,
    'Neo.TransientError.Transaction.DeadlockDetected',
    'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
    'Neo.ClientError.Security.Unauthorized',
    'Neo.ClientError.Transaction.TransactionTimedOut',
    'Neo.DatabaseError.General.UnknownError',
  ])('takes Neo4j’s %s for an outage, which blames no change', (code) => {
    expect(isGraphWriteRefusal(neo4jError(code))).toBe(false);
  });

  it('takes an error without a store’s code, or the relational database going away, for an outage', () => {
    expect(isGraphWriteRefusal(new Error('socket hang up'))).toBe(false);
    expect(isGraphWriteRefusal(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(false);
  });

  describe('the tables store', () => {
    const database = useEmbeddedTestDatabase(GRAPH_STORE_SCHEMA);

    it('blames the changes for what the tables store refuses to write (a time that is not integer milliseconds)', async () => {
      const store = new TypeOrmGraphStore(database.dataSource());
      const refusal: unknown = await store.write({ accountId: 'acc_refusal', environment: 'test' }, [link(1.5)]).then(
        () => undefined,
        (error: unknown) => error,
      );

      expect(refusal).toBeInstanceOf(RangeError);
      expect(isGraphWriteRefusal(refusal)).toBe(true);
    });
  });
});
