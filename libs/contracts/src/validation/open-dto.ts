import { type ClassTransformOptions, plainToInstance } from 'class-transformer';
import { IsObject, IsOptional, getMetadataStorage } from 'class-validator';

/**
 * Base of the objects whose fields the specification shows only in part (the PSP customer's
 * "further fields", the payment-method variants other than card). The declared fields are
 * validated like any DTO's; every other field the client sent is kept as sent in
 * `undeclaredFields`, and `toJSON` puts those back beside the declared ones, so the bus, the event
 * log and anything stored from JSON see the object exactly as it arrived.
 *
 * Why a side bag rather than leaving them in place: the strict validation (`validateInput`)
 * removes every property a validated class does not declare (unknown fields are ignored,
 * ADR-0001), and a nested object that is not an instance of a validated class is refused.
 */
export abstract class OpenDto {
  /** The fields sent but not declared by the class; absent when there were none. */
  @IsOptional() @IsObject() undeclaredFields?: Record<string, unknown>;

  /** The wire shape: declared and undeclared fields side by side. */
  toJSON(): Record<string, unknown> {
    const { undeclaredFields, ...declared } = this;
    return { ...undeclaredFields, ...declared };
  }
}

const declaredFieldsByClass = new WeakMap<object, ReadonlySet<string>>();

/** The properties a class (and its parents) declares through validation decorators. */
function declaredFieldsOf(type: new () => OpenDto): ReadonlySet<string> {
  let fields = declaredFieldsByClass.get(type);
  if (!fields) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
    fields = new Set(metadata.map((item) => item.propertyName).filter((name) => name !== 'undeclaredFields'));
    declaredFieldsByClass.set(type, fields);
  }
  return fields;
}

/** The object as the client sent it, also when it was already turned into an `OpenDto` (in-process bus). */
export function wireShapeOf(value: unknown): unknown {
  return value instanceof OpenDto ? value.toJSON() : value;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns a plain object into an instance of the open class `type`: declared fields become its
 * properties, the rest go to `undeclaredFields`. Anything but an object is returned unchanged, so
 * validation reports it ("must be an object").
 */
export function toOpenDto<T extends OpenDto>(type: new () => T, value: unknown, options?: ClassTransformOptions): unknown {
  const wire = wireShapeOf(value);
  if (!isJsonObject(wire)) return wire;
  const declared = declaredFieldsOf(type);
  const entries = Object.entries(wire);
  // fromEntries defines own properties, so a key such as "__proto__" stays a plain field.
  const instance = plainToInstance(type, Object.fromEntries(entries.filter(([name]) => declared.has(name))), options);
  const undeclared = entries.filter(([name]) => !declared.has(name));
  if (undeclared.length > 0) instance.undeclaredFields = Object.fromEntries(undeclared);
  return instance;
}
