import { RESERVED_KEY } from './reserved-keys';
import { isStorableText } from './storable-text';

/**
 * Deepest nesting of objects and arrays a request body may have (decisions: limits on depth).
 * Validating or transforming a body walks it recursively, so a hostile body of a million brackets
 * is refused before anything else walks it.
 */
export const MAX_JSON_DEPTH = 32;

/** What `scanBody` found, as bits; 0 for a body the guards let through. */
export const BODY_TOO_DEEP = 1;
export const BODY_UNSTORABLE_TEXT = 2;
export const BODY_RESERVED_KEY = 4;

/**
 * One walk of a parsed body for the body guards (hooks/body-guards.hook.ts): nesting deeper than
 * `maxDepth`, text PostgreSQL cannot store, keys included (storable-text.ts), and
 * keys named `constructor` (reserved-keys.ts). Nearly every body has none of them, so this walk
 * builds no path and allocates nothing; the guards' own finders, which name each place, run only
 * on a body it flags. Recursive, but never deeper than `maxDepth`: a body nested deeper is
 * flagged there and not walked further.
 */
export function scanBody(value: unknown, maxDepth = MAX_JSON_DEPTH): number {
  return scan(value, 0, maxDepth);
}

function scan(value: unknown, depth: number, maxDepth: number): number {
  if (typeof value === 'string') return isStorableText(value) ? 0 : BODY_UNSTORABLE_TEXT;
  if (value === null || typeof value !== 'object') return 0;
  if (depth >= maxDepth) return BODY_TOO_DEEP;
  let found = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) found |= scan(value[index], depth + 1, maxDepth);
    return found;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    if (key === RESERVED_KEY) found |= BODY_RESERVED_KEY;
    if (!isStorableText(key)) found |= BODY_UNSTORABLE_TEXT;
    found |= scan(object[key], depth + 1, maxDepth);
  }
  return found;
}
