import type { EntityKind, Environment } from '@ringfence/contracts';

// The kinds are the contracts' (the payload table names which ones each route carries).
export { ENTITY_KINDS, type EntityKind } from '@ringfence/contracts';

/** Identifies one stored entity within a tenant's data set. */
export interface EntityRef {
  accountId: string;
  environment: Environment;
  kind: EntityKind;
  entityId: string;
}

/**
 * An entity as stored: its fields (nested, as the payloads carry them) and, for every leaf
 * path, the timestamp (epoch ms) of the payload that set it (ADR-0005).
 */
export interface EntityDocument {
  fields: Record<string, unknown>;
  fieldTimestamps: Record<string, number>;
}

export interface EntityDocumentRepository {
  find(ref: EntityRef): Promise<EntityDocument | null>;
  /**
   * Reads the current document, lets `merge` compute the next one, and stores it only if
   * nobody wrote in between (otherwise it reads and merges again), so concurrent updates apply
   * one after the other. `merge` must be pure; it returns null when nothing changes (nothing is
   * written then).
   */
  update(
    ref: EntityRef,
    merge: (current: EntityDocument | null) => EntityDocument | null,
  ): Promise<EntityDocument | null>;
  /**
   * For implementations that keep `update`s in memory and write them later (write behind):
   * writes everything updated so far. Write-through stores do not have it. The ingestion
   * consumer calls it before its offsets are committed.
   */
  flush?(): Promise<void>;
}

export const ENTITY_DOCUMENT_REPOSITORY = Symbol('EntityDocumentRepository');
