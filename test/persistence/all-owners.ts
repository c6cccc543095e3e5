import { ACCOUNT_STORE_SCHEMA } from '@ringfence/account-store';
import { ENTITY_STORE_SCHEMA } from '@ringfence/entity-store';
import { GRAPH_STORE_SCHEMA } from '@ringfence/graph-store';
import { LABEL_STORE_SCHEMA } from '@ringfence/label-store';
import { LOOKUP_STORE_SCHEMA } from '@ringfence/lookup-store';
import { OWNED_SCHEMAS_MARK, type OwnedSchema, schemasOf } from '@ringfence/persistence';
import { SCORING_STORE_SCHEMA } from '@ringfence/scoring-store';

/** Every service's tables: what the standalone app, which runs them all, keeps. */
export const ALL_OWNERS: readonly OwnedSchema[] = [ACCOUNT_STORE_SCHEMA, ENTITY_STORE_SCHEMA, SCORING_STORE_SCHEMA, GRAPH_STORE_SCHEMA, LOOKUP_STORE_SCHEMA, LABEL_STORE_SCHEMA];

/** The names of every migration in the order TypeORM applies them (by timestamp; a split part after the shared part of its time). */
export function allMigrationNames(owners: readonly OwnedSchema[] = ALL_OWNERS): string[] {
  return schemasOf(owners)
    .flatMap((schema) => schema.migrations.map((migration) => new migration().name ?? migration.name))
    .map((name, index) => ({ name, index }))
    .sort((a, b) => Number(a.name.slice(-13)) - Number(b.name.slice(-13)) || a.index - b.index)
    .map(({ name }) => name);
}

/** What a database migrated by these owners records: their migrations, then the mark of a database migrated by owners. */
export function recordedMigrationNames(owners: readonly OwnedSchema[] = ALL_OWNERS): string[] {
  return [...allMigrationNames(owners), OWNED_SCHEMAS_MARK];
}
