import 'reflect-metadata';
import type { EntitySchema, MigrationInterface } from 'typeorm';

/** A migration class, as TypeORM takes it. */
export type MigrationClass = new () => MigrationInterface;

/** A table's TypeORM entity. */
export type EntityClass = EntitySchema;

/**
 * The tables one owner keeps in the database: its entities and its migrations, in order. The
 * owners are the services (each through its own store library, whose Nest module carries the
 * schema with `OwnsTables`) and this library's shared tables (`SHARED_SCHEMA`: the event log,
 * consumer offsets and set-aside rows). A process migrates the shared schema and the schemas of
 * the service modules it runs, and nothing else: a distributed app's database holds its own
 * tables only.
 */
export interface OwnedSchema {
  /** Who owns the tables: a service's scope, or `shared`. */
  readonly owner: string;
  readonly entities: readonly EntityClass[];
  readonly migrations: readonly MigrationClass[];
}

/**
 * A part of a migration that, before the tables had owners, touched several owners' tables in
 * one class. The historical class keeps its name with the owner it mostly belonged to; each
 * other owner's part is a migration of that owner named after it (same timestamp, so the order
 * is kept) and `splitFrom` the historical name. In a database of that chain where the historical
 * migration is recorded, every part ran already: the runner records them as applied without
 * running them (single-chain-history.ts, whose table of the parts must agree with `splitFrom`).
 */
export interface SplitMigration extends MigrationInterface {
  readonly splitFrom: string;
}

export function isSplitMigration(migration: MigrationInterface): migration is SplitMigration {
  return typeof (migration as Partial<SplitMigration>).splitFrom === 'string';
}

const OWNED_SCHEMA = Symbol('ringfence:owned-schema');

/** Marks a Nest module as the one that provides an owner's repositories over its tables. */
export function OwnsTables(schema: OwnedSchema): ClassDecorator {
  return (target) => Reflect.defineMetadata(OWNED_SCHEMA, schema, target);
}

/** The schema a module carries itself (`OwnsTables`), not its imports'. */
export function ownedSchemaOf(module: object): OwnedSchema | undefined {
  return Reflect.getMetadata(OWNED_SCHEMA, module) as OwnedSchema | undefined;
}

type ModuleImport = object | { module?: object } | Promise<unknown> | undefined;

/**
 * The schemas of the owners among the given Nest modules and everything they import: what the
 * process that runs these modules must migrate (besides the shared tables). Each once, in the
 * order first met.
 */
export function ownedSchemasOf(modules: readonly object[]): OwnedSchema[] {
  const schemas = new Set<OwnedSchema>();
  const seen = new Set<object>();
  const visit = (module: object): void => {
    if (seen.has(module)) return;
    seen.add(module);
    const schema = ownedSchemaOf(module);
    if (schema !== undefined) schemas.add(schema);
    for (const imported of (Reflect.getMetadata('imports', module) ?? []) as ModuleImport[]) {
      const target = importedModule(imported);
      if (target !== undefined) visit(target);
    }
  };
  modules.forEach(visit);
  return [...schemas];
}

function importedModule(imported: ModuleImport): object | undefined {
  if (imported === undefined || imported instanceof Promise) return undefined;
  if (typeof imported === 'function') return imported;
  const dynamic = (imported as { module?: object }).module;
  return dynamic;
}
