import type { EntityDocument } from './entity-document';

type Leaves = Map<string, unknown>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// JSON Pointer escaping (RFC 6901) keeps any key, dots and slashes included, unambiguous.
const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeKey = (key: string) => key.replace(/~1/g, '/').replace(/~0/g, '~');

/** The path of a leaf as `fieldTimestamps` keys it: `leafPath('chargebacks', id, 'forgiven')`. */
export const leafPath = (...keys: string[]): string => keys.map((key) => `/${escapeKey(key)}`).join('');

/**
 * Every leaf of a payload object by path. Arrays are leaves: they are replaced whole. An empty
 * object carries no field, so it sets nothing.
 */
export function flattenLeaves(value: Record<string, unknown>, prefix = '', out: Leaves = new Map()): Leaves {
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const path = `${prefix}/${escapeKey(key)}`;
    if (isPlainObject(child)) flattenLeaves(child, path, out);
    else out.set(path, child);
  }
  return out;
}

/**
 * Sets a leaf on `target`, copying each object on its path the first time this merge writes
 * under it (`copied`): a merge never changes the stored document it starts from (readers hold it,
 * and it is written later as it is), and subtrees it does not touch are shared, not cloned.
 */
function setLeaf(target: Record<string, unknown>, path: string, value: unknown, copied: Set<object>): void {
  const keys = path.slice(1).split('/').map(unescapeKey);
  let node = target;
  for (const key of keys.slice(0, -1)) {
    // Own properties only: an inherited "__proto__" would lead into Object.prototype itself.
    const next = Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
    // Spread, like defineProperty, makes every key (a "__proto__" too) an own data property.
    const child = isPlainObject(next) ? (copied.has(next) ? next : { ...next }) : {};
    copied.add(child);
    if (child !== next) Object.defineProperty(node, key, { value: child, enumerable: true, writable: true, configurable: true });
    node = child;
  }
  Object.defineProperty(node, keys[keys.length - 1], { value, enumerable: true, writable: true, configurable: true });
}

const stableText = (value: unknown) => JSON.stringify(value);

/**
 * Merges one payload into the stored entity, field by field (decisions §5): a leaf is taken when
 * the payload is newer than the timestamp of the stored leaf. Equal timestamps with different
 * values are settled by comparing the values' JSON text, so the result does not depend on the
 * order in which payloads arrive. Returns null when nothing changes, so replays write nothing.
 */
export function mergeDocument(
  current: EntityDocument | null,
  incoming: Record<string, unknown>,
  timestamp: number,
): EntityDocument | null {
  const fields: Record<string, unknown> = { ...(current?.fields ?? {}) };
  const copied = new Set<object>([fields]);
  const fieldTimestamps: Record<string, number> = { ...(current?.fieldTimestamps ?? {}) };
  let changed = current === null;
  for (const [path, value] of flattenLeaves(incoming)) {
    const storedAt = fieldTimestamps[path];
    const storedValue = storedAt === undefined ? undefined : readLeaf(fields, path);
    const wins =
      storedAt === undefined ||
      timestamp > storedAt ||
      (timestamp === storedAt && stableText(value) > stableText(storedValue));
    if (!wins) continue;
    if (storedAt === timestamp && stableText(value) === stableText(storedValue)) continue;
    setLeaf(fields, path, value, copied);
    fieldTimestamps[path] = timestamp;
    changed = true;
  }
  return changed ? { fields, fieldTimestamps } : null;
}

function readLeaf(fields: Record<string, unknown>, path: string): unknown {
  let node: unknown = fields;
  for (const key of path.slice(1).split('/').map(unescapeKey)) {
    if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}
