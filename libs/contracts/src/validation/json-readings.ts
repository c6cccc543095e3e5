/**
 * What a DTO's class-transformer decorators do, said again for a validation that reads the parsed
 * JSON in place instead of turning it into instances (`validateInput` in the service runtime;
 * `normaliseTimestamps` with a class).
 *
 * A plain `@Type(() => SomeDto)` needs nothing here: `jsonShapeOf` asks class-transformer's public
 * `plainToInstance` what it makes of an object sent for the property, once per class, and a class
 * or a primitive type (`@Type(() => Number)`) is read from the answer. A `@Transform` that changes
 * a value, or a nested class chosen by the value, cannot be read that way (class-transformer keeps
 * its metadata in a storage it does not export), so the decorator helper that declares it also
 * registers its reading here (`registerJsonReading`). `jsonShapeOf` then checks every property's
 * reading against class-transformer on a set of probe values and throws when they disagree, so a
 * new transform without its reading fails when its class is first validated, not silently.
 */
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { OpenDto } from './open-dto';

export type DtoClass = new () => object;

export interface JsonReading {
  /**
   * The value class-transformer's `@Transform` gives for the sent one, on JSON values; returns
   * its argument when it changes nothing, so a valid request costs no allocation.
   */
  readonly convert?: (value: unknown) => unknown;
  /** The class a nested object is validated as, when the object itself picks it (payment-method variants). */
  readonly classOf?: (object: Record<string, unknown>) => DtoClass;
  /**
   * The array's items are objects from a key to an object of this class, each validated under its
   * key (a national identification's document kind to its document).
   */
  readonly keyedItemsOf?: DtoClass;
}

/** How one nested property of a DTO is read from JSON. */
export interface NestedJson {
  /** The class an object at this place is validated as; undefined: none (an unknown value). */
  readonly classOf: (object: Record<string, unknown>) => DtoClass | undefined;
  /** Objects at the first level of the array are keyed maps of `classOf`'s objects (see `JsonReading.keyedItemsOf`). */
  readonly keyed: boolean;
}

export interface JsonShape {
  /** An `OpenDto`: fields it does not declare are kept where they are, not removed. */
  readonly open: boolean;
  /** The class's property initialisers (a query's default `depth`), set where the JSON has no value. */
  readonly defaults: ReadonlyArray<readonly [string, unknown]>;
  readonly conversions: ReadonlyArray<readonly [string, (value: unknown) => unknown]>;
  readonly nested: ReadonlyMap<string, NestedJson>;
}

const readings = new Map<object, Map<string, JsonReading>>();
const shapes = new Map<DtoClass, JsonShape>();
/** Parsed JSON objects validated and read as a class, with the class (weak: forgotten with the object). */
const classesReadAs = new WeakMap<object, DtoClass>();

/**
 * Records that the JSON object `object` was validated and read as `type` (the strict validation
 * calls it for each object it hands on), for readers that walk it by its class without being
 * told the class (`normaliseTimestamps`).
 */
export function rememberReadAs(object: object, type: DtoClass): void {
  classesReadAs.set(object, type);
}

/** The class the JSON object was validated and read as (`rememberReadAs`), if it was. */
export function classReadAs(object: object): DtoClass | undefined {
  return classesReadAs.get(object);
}

/** Registers what the transform of `target`'s property does on JSON (called by the decorator helpers). */
export function registerJsonReading(target: object, propertyName: string | symbol, reading: JsonReading): void {
  const owner = target.constructor;
  let byProperty = readings.get(owner);
  if (!byProperty) readings.set(owner, (byProperty = new Map()));
  byProperty.set(propertyName.toString(), { ...byProperty.get(propertyName.toString()), ...reading });
}

/** `registerJsonReading` as a decorator, beside the transform it reads. */
export function ReadFromJson(reading: JsonReading): PropertyDecorator {
  return (target, propertyName) => registerJsonReading(target, propertyName, reading);
}

/** The reading registered for the property on `type` or the nearest parent that has one. */
function registeredReading(type: DtoClass, propertyName: string): JsonReading | undefined {
  for (let current: unknown = type; typeof current === 'function' && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const reading = readings.get(current)?.get(propertyName);
    if (reading) return reading;
  }
  return undefined;
}

/** The JSON reading of `type`, made once. */
export function jsonShapeOf(type: DtoClass): JsonShape {
  let shape = shapes.get(type);
  if (shape === undefined) {
    shape = readShape(type);
    shapes.set(type, shape);
  }
  return shape;
}

function readShape(type: DtoClass): JsonShape {
  const properties = [...new Set(getMetadataStorage().getTargetValidationMetadatas(type, '', true, false).map((rule) => rule.propertyName))];
  const conversions: Array<[string, (value: unknown) => unknown]> = [];
  const nested = new Map<string, NestedJson>();
  for (const property of properties) {
    const registered = registeredReading(type, property);
    const typed = typeFromClassTransformer(type, property);
    const convert = registered?.convert ?? (typed.primitive ? primitiveConversion(typed.primitive) : undefined);
    if (convert) conversions.push([property, convert]);
    const keyedClass = registered?.keyedItemsOf;
    const classOf = registered?.classOf ?? (keyedClass ? () => keyedClass : typed.nestedClass ? () => typed.nestedClass : undefined);
    if (classOf) nested.set(property, { classOf, keyed: keyedClass !== undefined });
    checkAgainstClassTransformer(type, property, convert);
  }
  const instance = new type() as Record<string, unknown>;
  const defaults = Object.keys(instance).filter((key) => instance[key] !== undefined).map((key) => [key, instance[key]] as const);
  for (const [key, value] of defaults) {
    if (typeof value === 'object' || typeof value === 'function') throw new Error(`${type.name}.${key}: a default that is not a primitive would be shared between requests`);
  }
  return { open: type.prototype instanceof OpenDto, defaults, conversions, nested };
}

interface TransformerType {
  readonly nestedClass?: DtoClass;
  readonly primitive?: 'number' | 'string' | 'boolean';
}

/** What class-transformer turns an object sent for the property into: an instance of its `@Type`, a primitive, or the object itself. */
function typeFromClassTransformer(type: DtoClass, property: string): TransformerType {
  const made = (plainToInstance(type, { [property]: {} }, { enableImplicitConversion: false }) as Record<string, unknown>)[property];
  if (typeof made === 'number') return { primitive: 'number' };
  if (typeof made === 'string') return { primitive: 'string' };
  if (typeof made === 'boolean') return { primitive: 'boolean' };
  if (typeof made !== 'object' || made === null || made.constructor === Object) return {};
  if (made instanceof Map || made instanceof Set || made instanceof Date) throw new Error(`${type.name}.${property}: class-transformer makes a ${made.constructor.name} of it, which needs a JSON reading`);
  return { nestedClass: made.constructor as DtoClass };
}

/** class-transformer's conversion to a primitive `@Type`: null stays null, arrays item by item. */
function primitiveConversion(primitive: 'number' | 'string' | 'boolean'): (value: unknown) => unknown {
  const convertOne = primitive === 'number' ? Number : primitive === 'string' ? String : Boolean;
  const convert = (value: unknown): unknown => (value === null || value === undefined ? value : Array.isArray(value) ? value.map(convert) : convertOne(value));
  return convert;
}

/** Scalars and shallow arrays a client may send, and the spellings the interface's transforms convert. */
const PROBES: readonly unknown[] = ['text', '12', '-3', 'true', 'false', 'utc', 'europe/london', 'a, b', '', 12, 1.5, true, null, [], ['x'], ['a,b'], [[]], [12], [null]];

function checkAgainstClassTransformer(type: DtoClass, property: string, convert: ((value: unknown) => unknown) | undefined): void {
  for (const probe of PROBES) {
    const made = (plainToInstance(type, { [property]: JSON.parse(JSON.stringify(probe)) as unknown }, { enableImplicitConversion: false }) as Record<string, unknown>)[property];
    const read = convert ? convert(JSON.parse(JSON.stringify(probe)) as unknown) : probe;
    if (JSON.stringify(made) !== JSON.stringify(read)) {
      throw new Error(`${type.name}.${property}: class-transformer makes ${JSON.stringify(made)} of ${JSON.stringify(probe)}, its JSON reading ${JSON.stringify(read)} (register the transform's reading: registerJsonReading)`);
    }
  }
}
