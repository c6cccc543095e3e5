/** Deepest nesting of objects and arrays a request body may have (decisions: limits on depth). */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a parsed JSON value nests deeper than `maxDepth` objects/arrays. Iterative, so a
 * hostile body of a million brackets cannot overflow the stack here; validating or transforming
 * such a body recursively could, which is why it is refused before anything walks it.
 */
export function exceedsJsonDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
    }
  }
  return false;
}
