import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { ServiceTablesWithoutAccountKeys1765700000000 } from './1765700000000-service-tables-without-account-keys.migration';

const KEYS_TO_ACCOUNTS = `
  SELECT conrelid::regclass::text AS "table"
    FROM pg_constraint
   WHERE contype = 'f' AND confrelid = 'accounts'::regclass
   ORDER BY 1`;

describe(ServiceTablesWithoutAccountKeys1765700000000.name, () => {
  const database = useEmbeddedTestDatabase();

  it("leaves the gateway's api_keys the only table keyed to accounts, and down puts the others' keys back", async () => {
    const queryRunner = database.dataSource().createQueryRunner();
    const migration = new ServiceTablesWithoutAccountKeys1765700000000();
    try {
      expect(await queryRunner.query(KEYS_TO_ACCOUNTS)).toEqual([{ table: 'api_keys' }]);

      await migration.down(queryRunner);
      expect(await queryRunner.query(KEYS_TO_ACCOUNTS)).toHaveLength(13);

      await migration.up(queryRunner);
      expect(await queryRunner.query(KEYS_TO_ACCOUNTS)).toEqual([{ table: 'api_keys' }]);
    } finally {
      await queryRunner.release();
    }
  });
});
