/**
 * A key named `constructor` anywhere in a body. class-transformer, which turns every body into its
 * DTO before validation, reads an object's `constructor` to find its class: an own `constructor`
 * (`{"tags": {"constructor": true}}`) makes it look up metadata for `true` and throw, a 500 instead
 * of an answer, and on a declared object it would shadow the class the validator reads. Fastify's
 * parser already refuses `__proto__` and `constructor.prototype`; this refuses the rest, with a 400
 * naming where it is (ADR-0016: nothing accepted may fail later).
 */
export const RESERVED_KEY = 'constructor';
export const RESERVED_KEY_RULE = `must not be a key named ${RESERVED_KEY}`;

/** The paths of every `constructor` key in `value`, in payload order. Iterative, so no nesting exhausts the stack. */
export function findReservedKeys(value: unknown): string[] {
  const found: string[] = [];
  const pending: Array<[unknown, string]> = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, path] = next;
    if (current === null || typeof current !== 'object') continue;
    const entries: Array<[string, unknown]> = Array.isArray(current) ? current.map((item, index) => [String(index), item]) : Object.entries(current);
    const children: Array<[unknown, string]> = [];
    for (const [key, child] of entries) {
      const childPath = path === '' ? key : `${path}.${key}`;
      if (key === RESERVED_KEY && !Array.isArray(current)) found.push(childPath);
      else children.push([child, childPath]);
    }
    // Last pushed is visited first: push in reverse to keep the payload's order.
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]);
  }
  return found;
}

/** Every `constructor` key of a body, each as `path: rule`. Empty when there is none. */
export function reservedKeyProblems(body: unknown): string[] {
  return findReservedKeys(body).map((path) => `${path}: ${RESERVED_KEY_RULE}`);
}
