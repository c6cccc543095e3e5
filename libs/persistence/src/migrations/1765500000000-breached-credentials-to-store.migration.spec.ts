import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreBreachedCredentialsRepository, loadCredentialsKey, sha256Hex, storeDirOf } from '@ringfence/credentials';
import { convertLegacyBreachedCredentials } from '../repositories/breached-credentials-conversion';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { BreachedCredentialsToStore1765500000000 } from './1765500000000-breached-credentials-to-store.migration';

jest.setTimeout(60_000);

describe(BreachedCredentialsToStore1765500000000.name, () => {
  const database = useEmbeddedTestDatabase();

  it('drops an empty table, and hands a table with pairs to the start-up conversion, which moves them to the store and drops it', async () => {
    const dataSource = database.dataSource();
    const queryRunner = dataSource.createQueryRunner();
    const dataDir = mkdtempSync(join(tmpdir(), 'ringfence-conversion-'));
    const migration = new BreachedCredentialsToStore1765500000000();
    try {
      // Already applied on the test database: the table is gone (it was empty).
      await expect(queryRunner.query(`SELECT to_regclass('breached_credentials') AS t`)).resolves.toEqual([{ t: null }]);

      await migration.down(queryRunner);
      const insert = 'INSERT INTO breached_credentials (username, password_sha256) VALUES ($1, $2)';
      await queryRunner.query(insert, ['ada@example.com', sha256Hex('one')]);
      await queryRunner.query(insert, ['ada@example.com', sha256Hex('two')]);
      await queryRunner.query(insert, ['grace', sha256Hex('three')]);
      await migration.up(queryRunner);
      await expect(queryRunner.query(`SELECT count(*)::int AS n FROM breached_credentials_legacy`)).resolves.toEqual([{ n: 3 }]);

      const repository = await StoreBreachedCredentialsRepository.open(storeDirOf(dataDir), loadCredentialsKey(dataDir, undefined));
      try {
        await expect(convertLegacyBreachedCredentials(dataSource, repository)).resolves.toBe(3);
        await expect(repository.passwordPrefixesOf('ada@example.com').then((prefixes) => prefixes.sort())).resolves.toEqual(
          [sha256Hex('one'), sha256Hex('two')].map((hash) => hash.slice(0, 16)).sort(),
        );
        await expect(repository.passwordPrefixesOf('grace')).resolves.toEqual([sha256Hex('three').slice(0, 16)]);
        await expect(queryRunner.query(`SELECT to_regclass('breached_credentials_legacy') AS t`)).resolves.toEqual([{ t: null }]);
        // Nothing left to convert on the next start.
        await expect(convertLegacyBreachedCredentials(dataSource, repository)).resolves.toBe(0);
      } finally {
        await repository.close();
      }
    } finally {
      await queryRunner.release();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
