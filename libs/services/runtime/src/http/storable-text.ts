/**
 * Text PostgreSQL cannot store as sent: a NUL character (`text` and `jsonb` refuse U+0000) or a
 * lone UTF-16 surrogate (no UTF-8 encoding exists for one; `JSON.parse` turns a `"\ud800"` escape
 * into exactly that). Such a string anywhere in a request is refused at the boundary with a 400
 * naming where it is, rather than failing later in the database as a 5xx.
 */
export const UNSTORABLE_TEXT_RULE = 'must not contain a NUL character or a lone surrogate';

// Without the `u` flag a regular expression sees UTF-16 code units, so a high surrogate not
// followed by a low one, or a low one not preceded by a high one, is found as it is. Finding
// control characters is the point of both expressions.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** At most this many places are listed in one answer; a body of thousands of them says so in one line. */
export const MAX_LISTED_PLACES = 50;
const MAX_SEGMENT_LENGTH = 100;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** A key as it can be shown in a message: control characters and lone surrogates as `\uXXXX`, long keys cut. */
function printableSegment(segment: string): string {
  const shown = segment.length > MAX_SEGMENT_LENGTH ? `${segment.slice(0, MAX_SEGMENT_LENGTH)}…` : segment;
  return shown.replace(UNPRINTABLE, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The paths (`customer.name`, `items.2.sku`, a key's own path when the key is at fault) of every
 * string in `value`, keys included, that cannot be stored, in the order they appear. `root` names
 * the value itself when it is a string (and prefixes nothing otherwise). Iterative, so no nesting
 * can exhaust the stack.
 */
export function findUnstorableText(value: unknown, root: string): string[] {
  // Nearly every request has none: one walk that builds no path answers those.
  if (!holdsUnstorableText(value)) return [];
  const found: string[] = [];
  const pending: Array<[unknown, string]> = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, path] = next;
    if (typeof current === 'string') {
      if (!isStorableText(current)) found.push(path === '' ? root : path);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const entries: Array<[string, unknown]> = Array.isArray(current) ? current.map((item, index) => [String(index), item]) : Object.entries(current);
    const children: Array<[unknown, string]> = [];
    for (const [key, child] of entries) {
      const childPath = path === '' ? printableSegment(key) : `${path}.${printableSegment(key)}`;
      if (!isStorableText(key)) found.push(childPath);
      else children.push([child, childPath]);
    }
    // Last pushed is visited first: push in reverse to keep the payload's order.
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]);
  }
  return found;
}

/** Whether any string in `value`, keys included, cannot be stored. Iterative, like `findUnstorableText`. */
function holdsUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  for (let current = pending.pop(); pending.length > 0 || current !== undefined; current = pending.pop()) {
    if (typeof current === 'string') {
      if (!isStorableText(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (current !== null && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        if (!isStorableText(key)) return true;
        pending.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

export interface RequestParts {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/**
 * Every place in a request's path parameters, query parameters and body (in that order) holding
 * text that cannot be stored, each as `path: rule`. Empty when there is none.
 */
export function unstorableTextProblems(request: RequestParts): string[] {
  const places = [...findUnstorableText(request.params, 'path'), ...findUnstorableText(request.query, 'query'), ...findUnstorableText(request.body, 'body')];
  const listed = places.slice(0, MAX_LISTED_PLACES).map((place) => `${place}: ${UNSTORABLE_TEXT_RULE}`);
  if (places.length > MAX_LISTED_PLACES) listed.push(`${places.length - MAX_LISTED_PLACES} more fields: ${UNSTORABLE_TEXT_RULE}`);
  return listed;
}
