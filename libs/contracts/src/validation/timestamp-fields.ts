import { normaliseTimestampToMillis } from '@ringfence/platform';

/**
 * Which properties of which DTO classes are Unix times. `IsTimestamp` and `IsOptionalTimestamp`
 * register them, so one walk over a validated request can normalise every time in it, however
 * deeply nested, without a hand-written mapper per payload (ADR-0001).
 */
type DtoClass = abstract new (...args: never[]) => unknown;
const timestampFields = new Map<DtoClass, string[]>();

export const registerTimestampField: PropertyDecorator = (target, propertyKey) => {
  const owner = target.constructor as DtoClass;
  const fields = timestampFields.get(owner) ?? [];
  fields.push(String(propertyKey));
  timestampFields.set(owner, fields);
};

function fieldsOf(owner: DtoClass): string[] {
  const fields: string[] = [];
  // Subclasses inherit their parents' timestamp fields.
  for (let current = owner; current && (current as unknown) !== Object; current = Object.getPrototypeOf(current) as DtoClass) {
    fields.push(...(timestampFields.get(current) ?? []));
  }
  return fields;
}

/**
 * Rewrites, in place, every registered time of a validated DTO instance (and of the DTOs nested
 * in it) to epoch milliseconds, and returns the instance. Plain objects (open, "not shown"
 * shapes) are left as the client sent them.
 */
export function normaliseTimestamps<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) normaliseTimestamps(item);
    return value;
  }
  if (value === null || typeof value !== 'object' || value.constructor === Object) return value;
  const record = value as Record<string, unknown>;
  for (const field of fieldsOf(value.constructor as DtoClass)) {
    const time = record[field];
    if (typeof time === 'number') record[field] = normaliseTimestampToMillis(time);
  }
  for (const nested of Object.values(record)) {
    if (nested !== null && typeof nested === 'object') normaliseTimestamps(nested);
  }
  return value;
}
