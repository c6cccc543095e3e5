import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { SetAsideRows1765800000000 } from './1765800000000-set-aside-rows.migration';

describe(SetAsideRows1765800000000.name, () => {
  const database = useEmbeddedTestDatabase();

  it('creates the set_aside_rows table, one entry per writer and key digest, and drops it on down', async () => {
    const queryRunner = database.dataSource().createQueryRunner();
    const migration = new SetAsideRows1765800000000();
    const insert = (id: string) =>
      queryRunner.query(
        `INSERT INTO set_aside_rows (id, writer, account_id, environment, row_key, row_key_digest, row_json, error, attempts, set_aside_at) VALUES ($1, 'decision-records', NULL, NULL, 'k', 'digest-of-k', '{}', 'e', 3, 1)`,
        [id],
      );
    try {
      await migration.down(queryRunner);
      expect(await queryRunner.hasTable('set_aside_rows')).toBe(false);

      await migration.up(queryRunner);

      await insert('sa_1');
      await expect(insert('sa_2')).rejects.toThrow(/uq_set_aside_rows_writer_key/);
    } finally {
      await queryRunner.release();
    }
  });
});
