import { type DtoClass, type JsonShape, type NestedJson, jsonShapeOf } from '@ringfence/contracts';
import { type ValidationArguments, ValidationError } from 'class-validator';
import { type ClassPlan, type PropertyPlan, type ValidationMetadata, checkCustom, messageOf, planOf, validationError } from './compiled-validator';

/**
 * The strict validation on the parsed JSON itself: each DTO class's class-validator rules (the
 * compiled plan of `compiled-validator.ts`, the very constraint instances the decorators
 * registered) run on the request's own objects, which are changed in place as class-transformer
 * would have changed its copy (`jsonShapeOf`: unknown fields removed except on open objects,
 * conversions, defaults) and handed on as they are: no instance of any class per request.
 *
 * Why this walk rather than a JSON Schema compiled by Ajv: the answer must stay what class-
 * validator gives (`validate()` on a `plainToInstance` copy, held to it on every golden fixture
 * and mutations of them by `json-validator.spec.ts`), errors and their texts included. Most rules
 * are validator.js functions (`IsEmail`, `IsISO31661Alpha2`, `IsUrl`) or our own
 * (`registerDecorator`) that JSON Schema cannot state, so an Ajv schema would call the same
 * functions through custom keywords and map Ajv's errors back to class-validator's messages and
 * order: a second description of every rule to keep in step, for the part of the cost that was
 * never the rules. The cost was class-transformer's generic walk and its instances (about two
 * thirds of `validateInput`, `npm run bench:validation`), which this walk does not have.
 */

/** The errors of `object` validated as `type`, after it was read as class-transformer would (in place). */
export function validateJson(type: DtoClass, object: Record<string, unknown>): ValidationError[] {
  const errors: ValidationError[] = [];
  validateObjectAs(type, object, errors);
  return errors;
}

/**
 * The errors of only the named properties of `object` as `type`, read in place like the rest: for
 * an object whose other properties were validated already (`extendValidated`).
 */
export function validateJsonProperties(type: DtoClass, object: Record<string, unknown>, names: readonly string[]): ValidationError[] {
  const errors: ValidationError[] = [];
  const shape = jsonShapeOf(type);
  const plan = planOf(type);
  readFields(object, shape, names);
  for (const property of plan.properties) {
    if (names.includes(property.name)) validateProperty(object, type.name, object[property.name], property, shape.nested.get(property.name), errors);
  }
  return errors;
}

function validateObjectAs(type: DtoClass | undefined, object: Record<string, unknown>, errors: ValidationError[]): void {
  const plan: ClassPlan | undefined = type && planOf(type);
  if (type === undefined || plan === undefined || plan.properties.length === 0) {
    errors.push(validationError(undefined, undefined, { unknownValue: 'an unknown value was passed to the validate function' }, []));
    return;
  }
  const shape = jsonShapeOf(type);
  if (!shape.open) {
    for (const key of Object.keys(object)) if (!plan.known.has(key)) delete object[key];
  }
  readFields(object, shape, undefined);
  for (const property of plan.properties) {
    // An open object's undeclared fields stay in place: class-transformer's side bag, which the
    // rule of `undeclaredFields` checks, is always an object.
    if (shape.open && property.name === 'undeclaredFields') continue;
    validateProperty(object, type.name, object[property.name], property, shape.nested.get(property.name), errors);
  }
}

/** Defaults where nothing was sent, then each converted field (only `names`, when given). */
function readFields(object: Record<string, unknown>, shape: JsonShape, names: readonly string[] | undefined): void {
  for (const [name, value] of shape.defaults) {
    if (object[name] === undefined && (names === undefined || names.includes(name))) object[name] = value;
  }
  for (const [name, convert] of shape.conversions) {
    if (!(name in object) || (names !== undefined && !names.includes(name))) continue;
    const converted = convert(object[name]);
    if (converted !== object[name]) object[name] = converted;
  }
}

function validateProperty(object: object, targetName: string, value: unknown, property: PropertyPlan, nested: NestedJson | undefined, errors: ValidationError[]): void {
  for (const condition of property.conditions) {
    const holds = condition.constraints[0] as (object: object, value: unknown) => boolean;
    if (!holds(object, value)) return;
  }
  let failed = checkCustom(object, targetName, value, property.defined, undefined);
  failed = checkCustom(object, targetName, value, property.custom, failed);
  let children: ValidationError[] | undefined;
  if (value !== undefined && property.nested.length > 0) {
    for (const rule of property.nested) {
      // Only an array's items are keyed: an object in the array's place is of no class.
      if (Array.isArray(value)) validateNested(value, rule, nested, nested?.keyed ?? false, (children ??= []));
      else if (typeof value === 'object' && value !== null) validateNested(value, rule, nested?.keyed ? undefined : nested, false, (children ??= []));
      else (failed ??= {})[rule.type] = notAnObject(rule, value);
    }
  }
  if (failed !== undefined || (children !== undefined && children.length > 0)) errors.push(validationError(value, property.name, failed, children ?? []));
}

/**
 * A nested value: an object is validated as its class, an array element by element under its
 * index (class-validator iterates an array at any depth), a keyed item entry by entry under its key.
 */
function validateNested(value: object, rule: ValidationMetadata, nested: NestedJson | undefined, keyed: boolean, errors: ValidationError[]): void {
  if (Array.isArray(value)) {
    value.forEach((element: unknown, index) => validateElement(element, String(index), rule, nested, keyed, errors));
  } else if (keyed) {
    for (const [key, element] of Object.entries(value)) validateElement(element, key, rule, nested, false, errors);
  } else {
    const object = value as Record<string, unknown>;
    validateObjectAs(nested?.classOf(object), object, errors);
  }
}

/** One element of a nested array or keyed item: checked by the nested rule alone. */
function validateElement(element: unknown, key: string, rule: ValidationMetadata, nested: NestedJson | undefined, keyed: boolean, errors: ValidationError[]): void {
  if (typeof element === 'object' && element !== null) {
    const children: ValidationError[] = [];
    validateNested(element, rule, nested, keyed, children);
    if (children.length > 0) errors.push(validationError(element, key, undefined, children));
  } else {
    errors.push(validationError(element, key, { [rule.type]: notAnObject(rule, element) }, []));
  }
}

/** The nested rule's message for a value that is no object; class-validator describes it against the declaring class. */
function notAnObject(rule: ValidationMetadata, value: unknown): string {
  const args: ValidationArguments = { targetName: 'Function', property: rule.propertyName, object: rule.target as object, value, constraints: rule.constraints };
  return messageOf(rule, args);
}
