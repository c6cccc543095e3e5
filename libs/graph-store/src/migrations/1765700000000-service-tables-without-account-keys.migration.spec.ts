import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { GRAPH_STORE_SCHEMA } from '../graph-store.schema';
import { ServiceTablesWithoutAccountKeys1765700000000 } from './1765700000000-service-tables-without-account-keys.migration';

const KEYS_TO_ACCOUNTS = `
  SELECT conrelid::regclass::text AS "table"
    FROM pg_constraint
   WHERE contype = 'f' AND confrelid = 'accounts'::regclass
   ORDER BY 1`;

describe(ServiceTablesWithoutAccountKeys1765700000000.name, () => {
  const database = useEmbeddedTestDatabase(GRAPH_STORE_SCHEMA);

  it('leaves no graph table keyed to accounts, and down puts the keys back', async () => {
    const queryRunner = database.dataSource().createQueryRunner();
    const migration = new ServiceTablesWithoutAccountKeys1765700000000();
    try {
      // The graph's database has no account registry (the gateway's): a stand-in for the keys to point at.
      await queryRunner.query('CREATE TABLE accounts (id text PRIMARY KEY)');
      expect(await queryRunner.query(KEYS_TO_ACCOUNTS)).toEqual([]);

      await migration.down(queryRunner);
      expect(await queryRunner.query(KEYS_TO_ACCOUNTS)).toHaveLength(10);

      await migration.up(queryRunner);
      expect(await queryRunner.query(KEYS_TO_ACCOUNTS)).toEqual([]);
    } finally {
      await queryRunner.query('DROP TABLE IF EXISTS accounts');
      await queryRunner.release();
    }
  });
});
