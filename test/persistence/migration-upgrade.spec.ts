import { rm } from 'node:fs/promises';
import { ACCOUNT_STORE_SCHEMA } from '@ringfence/account-store';
import { ENTITY_STORE_SCHEMA } from '@ringfence/entity-store';
import { GRAPH_STORE_SCHEMA } from '@ringfence/graph-store';
import { LABEL_STORE_SCHEMA } from '@ringfence/label-store';
import { LOOKUP_STORE_SCHEMA } from '@ringfence/lookup-store';
import { type MigrationClass, OWNED_SCHEMAS_MARK, type OwnedSchema, PARTS_SPLIT_FROM_SINGLE_CHAIN, isSplitMigration, openDataSource, schemasOf } from '@ringfence/persistence';
import { EMBEDDED_OPEN_TIMEOUT_MS, makeMigratedDataDir } from '@ringfence/persistence/testing';
import { SCORING_STORE_SCHEMA } from '@ringfence/scoring-store';
import type { DataSource, MigrationInterface } from 'typeorm';
import { ALL_OWNERS, allMigrationNames } from './all-owners';

/**
 * What the single chain of migrations (before the tables had owners) recorded in a database it
 * migrated whole, in order: the names a database of that time holds in `migrations`.
 */
const OLD_CHAIN = [
  'InitialSchema1763800000000',
  'EntityDocumentRevision1763900000000',
  'Labels1764100000000',
  'LookupIndicators1764200000000',
  'BreachedCredentials1764210000000',
  'GraphStore1764300000000',
  'GraphTransactionDisputes1764400000000',
  'Rules1764500000000',
  'DecisionRecords1764510000000',
  'CallbackDeliveries1764600000000',
  'Velocity1764710000000',
  'StoredJsonAsText1764800000000',
  'GraphMerchantCustomers1764900000000',
  'Models1765000000000',
  'DecisionRecordListing1765100000000',
  'BreachedCredentialsToStore1765500000000',
  'LookupEvidenceIndustry1765600000000',
  'ServiceTablesWithoutAccountKeys1765700000000',
  'SetAsideRows1765800000000',
  'RuleSuspensions1765810000000',
  'ModelCandidates1765860000000',
];

const KEYS_TO_ACCOUNTS = `SELECT conrelid::regclass::text AS "table" FROM pg_constraint WHERE contype = 'f' AND confrelid = 'accounts'::regclass ORDER BY 1`;

const EVERY_MIGRATION: MigrationClass[] = schemasOf(ALL_OWNERS).flatMap((schema) => schema.migrations);
const SPLIT = EVERY_MIGRATION.map((migration) => new migration()).filter(isSplitMigration);
const SPLIT_PARTS = SPLIT.map((part) => part.name as string);
/** Migrations made after the owners' mark: an upgraded database of the old chain runs them too. */
const AFTER_THE_MARK = allMigrationNames().filter((name) => Number(name.slice(-13)) > Number(OWNED_SCHEMAS_MARK.slice(-13)));
const migrationNamed = (name: string) => EVERY_MIGRATION.map((migration) => new migration()).find((migration) => migration.name === name) as MigrationInterface;

const recorded = async (dataSource: DataSource): Promise<string[]> => ((await dataSource.query('SELECT name FROM migrations ORDER BY id')) as { name: string }[]).map((row) => row.name);
const tables = async (dataSource: DataSource): Promise<string[]> =>
  ((await dataSource.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`)) as { table_name: string }[]).map((row) => row.table_name);

/**
 * A database of the old chain: every table of every owner, migrated whole (or up to a point),
 * with only the historical names recorded. Made from today's migrations, whose end state is the
 * old chain's (the split parts' statements are the historical migrations' own), by rewriting the
 * record, and for a point before the end by running the later migrations' `down`.
 */
async function oldChainDatabase(made: string[], upTo = OLD_CHAIN.length): Promise<string> {
  const dataDir = await makeMigratedDataDir(...ALL_OWNERS);
  made.push(dataDir);
  const dataSource = await openDataSource({ dataDir, schemas: ALL_OWNERS });
  try {
    const timeOf = (name: string) => Number(name.slice(-13));
    const later = allMigrationNames().filter((name) => timeOf(name) > timeOf(OLD_CHAIN[upTo - 1]));
    const runner = dataSource.createQueryRunner();
    for (const name of [...later].reverse()) await migrationNamed(name).down(runner);
    await runner.release();
    await dataSource.query('DELETE FROM migrations WHERE NOT (name = ANY($1))', [OLD_CHAIN.slice(0, upTo)]);
    expect(await recorded(dataSource)).toEqual(OLD_CHAIN.slice(0, upTo));
    await dataSource.query(`INSERT INTO labels VALUES ('acc_1', 'live', 'customer', 'c1', 'fraud', 'FRAUD', now(), NULL, NULL, NULL)`);
  } finally {
    await dataSource.destroy();
  }
  return dataDir;
}

describe('migrating a database of the old single chain', () => {
  const dataDirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dataDirs.map((dataDir) => rm(dataDir, { recursive: true, force: true })));
  });

  it(
    'runs nothing again for any app: each records the parts split from what the old chain ran, and keeps the data',
    async () => {
      const dataDir = await oldChainDatabase(dataDirs);

      // A distributed app upgrades its database first: the labelling app records every owner's
      // parts and the mark; then every owner (standalone) finds nothing to run.
      const labelling = await openDataSource({ dataDir, schemas: [LABEL_STORE_SCHEMA] });
      // Then the labelling tables made after the mark (the cases', issue 37, and their next-case index).
      expect(await recorded(labelling)).toEqual([
        ...OLD_CHAIN,
        ...Object.values(PARTS_SPLIT_FROM_SINGLE_CHAIN).flat(),
        OWNED_SCHEMAS_MARK,
        'Cases1766100000000',
        'OpenUnassignedCasesIndex1767071000000',
      ]);
      await labelling.destroy();

      const standalone = await openDataSource({ dataDir, schemas: ALL_OWNERS });
      try {
        expect((await recorded(standalone)).sort()).toEqual([...OLD_CHAIN, ...SPLIT_PARTS, OWNED_SCHEMAS_MARK, ...AFTER_THE_MARK].sort());
        await expect(standalone.query('SELECT subject_id FROM labels')).resolves.toEqual([{ subject_id: 'c1' }]);
        await expect(standalone.driver.createSchemaBuilder().log()).resolves.toMatchObject({ upQueries: [] });
      } finally {
        await standalone.destroy();
      }
    },
    EMBEDDED_OPEN_TIMEOUT_MS * 2,
  );

  it(
    'runs what the old chain had not run yet, split parts included, to the same schema',
    async () => {
      // Migrated up to LookupEvidenceIndustry1765600000000: the service tables still keyed to accounts.
      const dataDir = await oldChainDatabase(dataDirs, OLD_CHAIN.indexOf('LookupEvidenceIndustry1765600000000') + 1);

      const standalone = await openDataSource({ dataDir, schemas: ALL_OWNERS });
      try {
        expect((await recorded(standalone)).sort()).toEqual([...OLD_CHAIN, ...SPLIT_PARTS, OWNED_SCHEMAS_MARK, ...AFTER_THE_MARK].sort());
        // Only the account store's own tables (keys, people) refer to its accounts.
        await expect(standalone.query(KEYS_TO_ACCOUNTS)).resolves.toEqual([{ table: 'api_keys' }, { table: 'users' }]);
        expect(await tables(standalone)).toContain('set_aside_rows');
        await expect(standalone.driver.createSchemaBuilder().log()).resolves.toMatchObject({ upQueries: [] });
      } finally {
        await standalone.destroy();
      }
    },
    EMBEDDED_OPEN_TIMEOUT_MS * 2,
  );
});

describe('the parts split from the single chain', () => {
  it('are the parts the owners declare, each under the migration it names', () => {
    expect(Object.entries(PARTS_SPLIT_FROM_SINGLE_CHAIN).flatMap(([historical, parts]) => parts.map((part) => `${historical} > ${part}`)).sort()).toEqual(
      SPLIT.map((part) => `${part.splitFrom} > ${part.name as string}`).sort(),
    );
    expect(Object.keys(PARTS_SPLIT_FROM_SINGLE_CHAIN).every((historical) => OLD_CHAIN.includes(historical))).toBe(true);
  });
});

describe('a new database two apps share', () => {
  it(
    "gets each app's tables whichever migrates first (a lookup service, then a gateway)",
    async () => {
      const dataDir = await makeMigratedDataDir(LOOKUP_STORE_SCHEMA);
      try {
        const gateway = await openDataSource({ dataDir, schemas: [ACCOUNT_STORE_SCHEMA] });
        try {
          expect(await tables(gateway)).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'lookup_indicators']));
          expect(await recorded(gateway)).toContain('InitialAccounts1763800000000');
        } finally {
          await gateway.destroy();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    EMBEDDED_OPEN_TIMEOUT_MS,
  );
});

describe('a new database of one distributed app', () => {
  const SHARED_TABLES = ['consumer_offsets', 'event_log', 'migrations', 'set_aside_rows'];
  const OWNED_TABLES: Array<[owner: string, schema: OwnedSchema, tables: string[]]> = [
    ['gateway', ACCOUNT_STORE_SCHEMA, ['accounts', 'api_keys', 'card_instrument_secrets', 'card_key_pairs', 'user_sessions', 'users']],
    ['ingestion', ENTITY_STORE_SCHEMA, ['device_records', 'entity_documents']],
    ['labelling', LABEL_STORE_SCHEMA, ['callback_deliveries', 'case_decisions', 'case_events', 'cases', 'label_history', 'labels', 'payment_reviews']],
    ['lookup', LOOKUP_STORE_SCHEMA, ['lookup_evidence', 'lookup_indicators']],
    ['scoring', SCORING_STORE_SCHEMA, ['decision_facts', 'decision_records', 'decision_search_keys', 'models', 'rule_suspensions', 'rule_versions', 'velocity_keys', 'velocity_occurrences', 'velocity_recorded_events']],
    [
      'graph',
      GRAPH_STORE_SCHEMA,
      ['graph_chargebacks', 'graph_custom_node_types', 'graph_disputes', 'graph_edges', 'graph_labels', 'graph_merchant_customers', 'graph_nodes', 'graph_redemptions', 'graph_tags', 'graph_transaction_owners'],
    ],
  ];

  it.each(OWNED_TABLES)(
    "holds the %s app's tables and the shared ones, nothing else",
    async (_owner, schema, owned) => {
      const dataDir = await makeMigratedDataDir(schema);
      const dataSource = await openDataSource({ dataDir, schemas: [schema] });
      try {
        expect(await tables(dataSource)).toEqual([...SHARED_TABLES, ...owned].sort());
        await expect(dataSource.driver.createSchemaBuilder().log()).resolves.toMatchObject({ upQueries: [] });
      } finally {
        await dataSource.destroy();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    EMBEDDED_OPEN_TIMEOUT_MS,
  );
});
