import type { EntityDocument } from './entity-document';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// JSON Pointer escaping (RFC 6901) keeps any key, dots and slashes included, unambiguous. Most
// keys have neither character: tested first, they are taken as they are, without two replace()
// scans and their match objects.
const escapeKey = (key: string) => (key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key);

/** The path of a leaf as `fieldTimestamps` keys it: `leafPath('chargebacks', id, 'forgiven')`. */
export const leafPath = (...keys: string[]): string => keys.map((key) => `/${escapeKey(key)}`).join('');

/**
 * The paths of the leaves merged lately, by the path of their object and their key: the same
 * few hundred paths (`/email`, `/billingAddress/city`) come in every payload, and each built
 * anew was a string made and then flattened to be looked up in the timestamps, three times per
 * leaf. Forgotten whole past `MAX_REMEMBERED_PATHS` (open objects have keys of their own).
 */
const rememberedPaths = new Map<string, Map<string, string>>();
let rememberedPathCount = 0;
const MAX_REMEMBERED_PATHS = 10_000;

function pathOf(prefix: string, key: string): string {
  let paths = rememberedPaths.get(prefix);
  let path = paths?.get(key);
  if (path !== undefined) return path;
  if (rememberedPathCount >= MAX_REMEMBERED_PATHS) {
    rememberedPaths.clear();
    rememberedPathCount = 0;
    paths = undefined;
  }
  if (paths === undefined) rememberedPaths.set(prefix, (paths = new Map()));
  path = `${prefix}/${escapeKey(key)}`;
  paths.set(key, path);
  rememberedPathCount += 1;
  return path;
}

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/** The keys assignment could not make own data properties: "__proto__" (the prototype's setter), and those a frozen prototype refuses. */
const OBJECT_PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Sets `key` as an own data property: a key of Object.prototype ("__proto__" too, which
 * assignment would take as the prototype) by defineProperty, any other by assignment, which
 * makes the same property at a seventh of the time and without a descriptor object.
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (OBJECT_PROTOTYPE_KEYS.has(key)) Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

const stableText = (value: unknown) => JSON.stringify(value);

/** One merge's state: the payload's timestamp, and the timestamps, copied when the first leaf is taken. */
interface Merge {
  readonly timestamp: number;
  readonly storedTimestamps: Record<string, number>;
  timestamps: Record<string, number> | undefined;
}

/**
 * Merges one payload into the stored entity, field by field (ADR-0005): a leaf is taken when
 * the payload is newer than the timestamp of the stored leaf. Equal timestamps with different
 * values are settled by comparing the values' JSON text, so the result does not depend on the
 * order in which payloads arrive. Arrays are leaves (replaced whole); an empty object carries no
 * field. Returns null when nothing changes, so replays write nothing.
 *
 * The stored document is never changed (readers hold it, and it is written later as it is): each
 * object on the way to a taken leaf is copied once, and subtrees the payload does not change are
 * shared, not cloned.
 */
export function mergeDocument(
  current: EntityDocument | null,
  incoming: Record<string, unknown>,
  timestamp: number,
): EntityDocument | null {
  const merge: Merge = { timestamp, storedTimestamps: current?.fieldTimestamps ?? {}, timestamps: undefined };
  const fields = mergeObject(current?.fields, incoming, '', merge);
  // No leaf taken: a replay changes nothing, and a first payload without fields stores an empty entity.
  if (fields === undefined) return current === null ? { fields: {}, fieldTimestamps: {} } : null;
  // A leaf was taken, so the timestamps were copied and set.
  return { fields, fieldTimestamps: merge.timestamps ?? {} };
}

/**
 * Merges `incoming` into `stored` (the stored value at `prefix`, an object or not, or absent):
 * the merged copy, or undefined when no leaf under it is taken.
 */
function mergeObject(stored: unknown, incoming: Record<string, unknown>, prefix: string, merge: Merge): Record<string, unknown> | undefined {
  const storedObject = isPlainObject(stored) ? stored : undefined;
  let merged: Record<string, unknown> | undefined;
  for (const key of Object.keys(incoming)) {
    const value = incoming[key];
    if (value === undefined) continue;
    const path = pathOf(prefix, key);
    // Own properties only: an inherited "__proto__" would lead into Object.prototype itself.
    const storedValue = storedObject !== undefined && hasOwn(storedObject, key) ? storedObject[key] : undefined;
    let next: unknown;
    if (isPlainObject(value)) {
      next = mergeObject(storedValue, value, path, merge);
      if (next === undefined) continue;
    } else {
      if (!takesLeaf(merge, path, storedValue, value)) continue;
      (merge.timestamps ??= { ...merge.storedTimestamps })[path] = merge.timestamp;
      next = value;
    }
    // Spread, like defineProperty, makes every key (a "__proto__" too) an own data property.
    merged ??= { ...storedObject };
    setOwn(merged, key, next);
  }
  return merged;
}

/** Whether the payload's leaf at `path` replaces the stored one (`storedValue`, read along the same path). */
function takesLeaf(merge: Merge, path: string, storedValue: unknown, value: unknown): boolean {
  const storedAt = merge.storedTimestamps[path];
  if (storedAt === undefined || merge.timestamp > storedAt) return true;
  if (merge.timestamp < storedAt) return false;
  // The same time: the larger JSON text wins, and the same value changes nothing.
  return stableText(value) > stableText(storedValue);
}
