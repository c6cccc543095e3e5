import { ConsumerOffsetEntity } from './entities/consumer-offset.entity';
import { EventLogEntryEntity } from './entities/event-log-entry.entity';
import { InitialSchema1763800000000 } from './migrations/1763800000000-initial-schema.migration';
import { BreachedCredentials1764210000000 } from './migrations/1764210000000-breached-credentials.migration';
import { EventLogAsText1764800000000 } from './migrations/1764800000000-event-log-as-text.migration';
import { BreachedCredentialsToStore1765500000000 } from './migrations/1765500000000-breached-credentials-to-store.migration';
import { SetAsideRows1765800000000 } from './migrations/1765800000000-set-aside-rows.migration';
import type { EntityClass, MigrationClass, OwnedSchema } from './owned-schema';

/**
 * The tables every process has: the event log and the consumers' offsets (the embedded mode's
 * bus), the rows its writers set aside, and the old breached-credentials table's migrations (a
 * process holding the credential store converts its rows; a new database never keeps it).
 */
export const SHARED_SCHEMA: OwnedSchema = {
  owner: 'shared',
  entities: [EventLogEntryEntity, ConsumerOffsetEntity],
  migrations: [InitialSchema1763800000000, BreachedCredentials1764210000000, EventLogAsText1764800000000, BreachedCredentialsToStore1765500000000, SetAsideRows1765800000000],
};

/** The shared schema and the given owners', each once: what one process maps and migrates. */
export function schemasOf(owned: readonly OwnedSchema[] = []): OwnedSchema[] {
  return [...new Set([SHARED_SCHEMA, ...owned])];
}

export function entitiesOf(schemas: readonly OwnedSchema[]): EntityClass[] {
  return schemas.flatMap((schema) => schema.entities);
}

/** Every owner's migrations; TypeORM runs them in timestamp order whatever their owner. */
export function migrationsOf(schemas: readonly OwnedSchema[]): MigrationClass[] {
  return schemas.flatMap((schema) => schema.migrations);
}
