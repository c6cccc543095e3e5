/**
 * The payload as rules see it, with bounded values (ADR-0016: an expression's cost bounded
 * by construction, over bounded inputs). The request body may hold up to 1 MiB in fields
 * nobody validates; a comprehension over a 250,000-element list, or string work over a
 * megabyte, would cost seconds. A value past these bounds is absent to rules, like a field
 * the request did not send: `has()` is false and reading it fails the rule, not the request.
 * Every field the API validates fits them.
 */
export const PAYLOAD_BOUNDS = Object.freeze({
  /** UTF-16 code units of a string (the same bound as a `matches` input). */
  maxStringLength: 4_096,
  /** Elements of a list. */
  maxListLength: 1_000,
  /** Fields of an object. */
  maxObjectFields: 1_000,
  /** Nesting of objects and lists; the payload itself is level 1. */
  maxDepth: 16,
});

/** The payload itself when every value is within bounds (no copy: the usual case), else a copy without those that are not. */
export function boundedPayload(payload: Record<string, unknown>): Record<string, unknown> {
  return withinBounds(payload, 1) ? payload : (boundedCopy(payload, 1) as Record<string, unknown>);
}

function withinBounds(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.length <= PAYLOAD_BOUNDS.maxStringLength;
  if (value === null || typeof value !== 'object') return true;
  if (depth > PAYLOAD_BOUNDS.maxDepth) return false;
  if (Array.isArray(value)) return value.length <= PAYLOAD_BOUNDS.maxListLength && value.every((element) => withinBounds(element, depth + 1));
  const fields = Object.values(value);
  return fields.length <= PAYLOAD_BOUNDS.maxObjectFields && fields.every((field) => withinBounds(field, depth + 1));
}

/** The value within bounds, or undefined when it is past them itself. */
function boundedCopy(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length <= PAYLOAD_BOUNDS.maxStringLength ? value : undefined;
  if (value === null || typeof value !== 'object') return value;
  if (depth > PAYLOAD_BOUNDS.maxDepth) return undefined;
  if (Array.isArray(value)) {
    if (value.length > PAYLOAD_BOUNDS.maxListLength) return undefined;
    // A list keeps its length: an element past the bounds becomes null rather than shifting the others.
    return value.map((element) => boundedCopy(element, depth + 1) ?? null);
  }
  const entries = Object.entries(value);
  if (entries.length > PAYLOAD_BOUNDS.maxObjectFields) return undefined;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of entries) {
    const bounded = boundedCopy(field, depth + 1);
    if (bounded !== undefined) copy[name] = bounded;
  }
  return copy;
}
