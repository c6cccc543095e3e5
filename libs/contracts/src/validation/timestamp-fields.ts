import { normaliseTimestampToMillis } from '@ringfence/platform';
import { type NestedJson, classReadAs, jsonShapeOf } from './json-readings';

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
 * Rewrites, in place, every registered time of a validated request (and of the DTOs nested in
 * it) to epoch milliseconds, and returns it. The strict validation hands on the parsed JSON,
 * validated in place, whose objects carry no class: they are walked as the class they were read
 * as (`type`, else the one the validation recorded, `classReadAs`). Anything else is read as DTO
 * instances (class-transformer's). Objects of no DTO class (open, "not shown" shapes) are left as
 * the client sent them.
 */
export function normaliseTimestamps<T>(value: T, type = typeof value === 'object' && value !== null ? classReadAs(value) : undefined): T {
  if (type !== undefined) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) normaliseJsonObject(value as Record<string, unknown>, type);
    return value;
  }
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

function normaliseJsonObject(object: Record<string, unknown>, type: new () => object): void {
  for (const field of fieldsOf(type)) {
    const time = object[field];
    if (typeof time === 'number') object[field] = normaliseTimestampToMillis(time);
  }
  for (const [property, nested] of jsonShapeOf(type).nested) normaliseJsonNested(object[property], nested, nested.keyed);
}

function normaliseJsonNested(value: unknown, nested: NestedJson, keyed: boolean): void {
  if (Array.isArray(value)) {
    for (const item of value) normaliseJsonNested(item, nested, keyed);
  } else if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    if (keyed) {
      for (const document of Object.values(object)) normaliseJsonNested(document, nested, false);
    } else {
      const type = nested.classOf(object);
      if (type !== undefined) normaliseJsonObject(object, type);
    }
  }
}
