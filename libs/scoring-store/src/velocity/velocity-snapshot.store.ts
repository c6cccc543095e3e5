/**
 * Where scoring's velocity counters are written behind and read back at start (the port; the
 * TypeORM store implements it). Rows carry JSON the store does not read: the shapes belong to
 * `@ringfence/scoring-engine`'s `VelocityFeatures` (`takeChanges`, `restoreKey`…), whose changes
 * this port takes as they are. The port lives here, with its only implementation, because the
 * persistence library may depend only on shared libraries.
 */
export interface VelocityScopeRow {
  accountId: string;
  environment: string;
}

/**
 * A key to store or to delete (null). Its snapshot is in two parts: `older`, rewritten only when
 * it changed (absent: keep the stored one), and `fresh`, rewritten every time: a busy key's
 * write stays small (the older part is TOASTed and not rewritten by an update of the other).
 */
export interface VelocityKeyWrite {
  dimension: string;
  key: string;
  snapshot: { older?: object; fresh: object } | null;
}

export interface VelocityOccurrenceRow {
  /** `<kind>:<id>`. */
  occurrence: string;
  flags: number;
  day: number;
}

/** One tenant's changes since the last write. */
export interface VelocityTenantWrite {
  scope: VelocityScopeRow;
  keys: readonly VelocityKeyWrite[];
  occurrences: readonly VelocityOccurrenceRow[];
  /** Stored occurrences of days before this one may go. */
  occurrencesForgottenBefore: number | undefined;
  /** The events this write covers. */
  recordedEventIds: readonly string[];
}

export interface StoredVelocityKey {
  scope: VelocityScopeRow;
  dimension: string;
  key: string;
  snapshot: { older: unknown; fresh: unknown };
}

export interface StoredVelocityOccurrence extends VelocityOccurrenceRow {
  scope: VelocityScopeRow;
}

/** Where keyset pages resume: the last row of the previous page. */
export interface VelocityPageCursor {
  scope: VelocityScopeRow;
  /** The key (`dimension` + `key`) or the occurrence of the last row. */
  after: readonly string[];
}

export interface VelocitySnapshotStore {
  /**
   * Writes every tenant's changes in one statement, so that the counters and the ids of the
   * events they include are stored together or not at all, and forgets recorded event ids
   * written before `forgetRecordedEventsBeforeMillis`.
   */
  write(changes: readonly VelocityTenantWrite[], writtenAtMillis: number, forgetRecordedEventsBeforeMillis: number): Promise<void>;
  /** Stored keys after `after` (all tenants, key order), at most `limit`: keyset pages. */
  keysAfter(after: VelocityPageCursor | undefined, limit: number): Promise<StoredVelocityKey[]>;
  /** Stored occurrences after `after` (all tenants, key order), at most `limit`. */
  occurrencesAfter(after: VelocityPageCursor | undefined, limit: number): Promise<StoredVelocityOccurrence[]>;
  /** The recorded event ids of every write kept, per tenant, oldest write first. */
  recordedEventIds(): Promise<Array<{ scope: VelocityScopeRow; eventIds: string[] }>>;
}

/** Nest injection token of the `VelocitySnapshotStore`. */
export const VELOCITY_SNAPSHOT_STORE = Symbol('VelocitySnapshotStore');
