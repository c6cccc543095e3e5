import { minorUnitDigits } from '../currency-amounts';
import type { OccurrenceRecord } from './occurrence-registry';
import type { BucketLayout } from './velocity-bucket-tiers';
import { VelocityBuckets } from './velocity-buckets';
import type { VelocityBucketsPart } from './velocity-buckets-snapshot';
import type { VelocityDimension } from './velocity-dimensions';
import { VelocityKey } from './velocity-key';
import type { VelocityScope } from './velocity-scope';

/**
 * One key as stored, in two parts so that a busy key (hundreds of buckets, written at every
 * flush) rewrites only what changed: `older`, its buckets starting before `freshFrom` (which
 * change about once a minute, when old buckets merge), and `fresh`, the others with the newest
 * time and the currency. `older` is absent from a write when it is the same as the one stored.
 */
export interface VelocityKeySnapshot {
  older?: VelocityBucketsPart & { freshFrom: number };
  fresh: VelocityBucketsPart & { newest: number; currency?: string };
}

/** A key to write (its snapshot) or to delete (null: forgotten, nothing left to count). */
export interface VelocityKeyChange {
  dimension: VelocityDimension;
  key: string;
  snapshot: VelocityKeySnapshot | null;
}

/** What changed in one tenant since the last `takeChanges`: one write's worth. */
export interface VelocityTenantChanges {
  scope: VelocityScope;
  keys: VelocityKeyChange[];
  occurrences: OccurrenceRecord[];
  /** The store may forget occurrences of days before this one. */
  occurrencesForgottenBefore: number | undefined;
  /** The events this write covers: a replay of any of them must not count again. */
  recordedEventIds: string[];
}

/** A fresh part of more buckets than this is written with a new `older` part, to keep writes small. */
const MAX_FRESH_BUCKETS = 8;

/**
 * The key's snapshot for the store: only the fresh part while the older part stored is still
 * right and the fresh part small, else both, split at the current fresh boundary.
 */
export function snapshotOf(state: VelocityKey): VelocityKeySnapshot {
  const freshOf = (from: number) => ({
    ...state.snapshotBetween(from, Number.POSITIVE_INFINITY),
    newest: state.newestMillis,
    ...(state.currency === undefined ? {} : { currency: state.currency }),
  });
  if (state.writtenVersion === state.changeVersion) {
    const fresh = freshOf(state.writtenFreshFrom);
    if (fresh.buckets.length <= MAX_FRESH_BUCKETS) return { fresh };
  }
  const freshFrom = state.freshFromMinute;
  state.writtenVersion = state.changeVersion;
  state.writtenFreshFrom = freshFrom;
  return { older: { ...state.snapshotBetween(Number.NEGATIVE_INFINITY, freshFrom), freshFrom }, fresh: freshOf(freshFrom) };
}

/** The stored parts of a key as one `VelocityBuckets` snapshot; throws a RangeError when they do not fit together. */
function joinParts(older: unknown, fresh: unknown): unknown {
  const part = (value: unknown, name: string): VelocityBucketsPart => {
    const candidate = value as Partial<VelocityBucketsPart> | null | undefined;
    if (typeof candidate !== 'object' || candidate === null || !Array.isArray(candidate.buckets) || !Array.isArray(candidate.numbers)) {
      throw new RangeError(`velocity key snapshot: ${name} must hold buckets and numbers`);
    }
    if (candidate.distincts !== undefined && !Array.isArray(candidate.distincts)) throw new RangeError(`velocity key snapshot: ${name}.distincts must be an array`);
    return candidate as VelocityBucketsPart;
  };
  const olderPart = part(older, 'older');
  const freshPart = part(fresh, 'fresh');
  const freshFrom = (older as { freshFrom?: unknown }).freshFrom;
  const startOf = (encoded: number) => Math.floor(encoded / 4);
  if (typeof freshFrom !== 'number' || olderPart.buckets.some((encoded) => startOf(encoded) >= freshFrom) || freshPart.buckets.some((encoded) => startOf(encoded) < freshFrom)) {
    throw new RangeError('velocity key snapshot: the older part must hold the buckets before freshFrom, the fresh part the others');
  }
  const shift = olderPart.buckets.length;
  const distincts = [
    ...(olderPart.distincts ?? []),
    ...(freshPart.distincts ?? []).map((entry) => (Array.isArray(entry) && typeof entry[0] === 'number' ? [entry[0] + shift, ...entry.slice(1)] : entry)),
  ];
  return {
    newest: (fresh as { newest?: unknown }).newest,
    buckets: [...olderPart.buckets, ...freshPart.buckets],
    numbers: [...olderPart.numbers, ...freshPart.numbers],
    ...(distincts.length > 0 ? { distincts } : {}),
  };
}

/** A stored key read back (at start); throws a RangeError for a snapshot `snapshotOf` could not have taken. */
export function restoreVelocityKey(layout: BucketLayout, snapshot: unknown): VelocityKey {
  const { older, fresh } = (typeof snapshot === 'object' && snapshot !== null ? snapshot : {}) as Partial<VelocityKeySnapshot>;
  const state = VelocityBuckets.restore(layout, joinParts(older, fresh), new VelocityKey(layout)) as VelocityKey;
  const currency = fresh?.currency;
  if (currency !== undefined && (typeof currency !== 'string' || minorUnitDigits(currency) === null)) throw new RangeError('velocity key snapshot: currency must be an ISO 4217 code');
  state.currency = currency;
  return state;
}
