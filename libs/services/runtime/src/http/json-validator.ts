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
 * and mutations of them by `test/contracts/json-validation-parity.spec.ts`), errors and their texts included. Most rules
 * are validator.js functions (`IsEmail`, `IsISO31661Alpha2`, `IsUrl`) or our own
 * (`registerDecorator`) that JSON Schema cannot state, so an Ajv schema would call the same
 * functions through custom keywords and map Ajv's errors back to class-validator's messages and
 * order: a second description of every rule to keep in step, for the part of the cost that was
 * not the rules. Measured (`npm run bench:validation`, the full golden payloads), the cost was
 * class-transformer's generic walk and its instances, and class-validator's container searched
 * for each constraint's validator on every call (now fetched once, `compiled-validator.ts`):
 * without them a full refund validates in about a fifth of the time and allocation of the
 * replaced path, and what is left is mostly the rules' own functions, which Ajv would call too.
 */

/** A class's rules and JSON reading side by side, looked up once per object. */
interface JsonClassPlan {
  readonly name: string;
  readonly plan: ClassPlan;
  readonly shape: JsonShape;
  /** The nested reading of each of `plan.properties`, in the same order. */
  readonly nested: ReadonlyArray<NestedJson | undefined>;
}

const classPlans = new Map<DtoClass, JsonClassPlan>();

function classPlanOf(type: DtoClass): JsonClassPlan {
  let classPlan = classPlans.get(type);
  if (classPlan === undefined) {
    const plan = planOf(type);
    const shape = jsonShapeOf(type);
    classPlan = { name: type.name, plan, shape, nested: plan.properties.map((property) => shape.nested.get(property.name)) };
    classPlans.set(type, classPlan);
  }
  return classPlan;
}

/**
 * Errors of nested values, collected here before their parent knows it has any: the parent takes
 * what was added after its mark (`childErrors`), so a nested value that passes costs no list.
 */
const pending: ValidationError[] = [];

function childErrors(mark: number): ValidationError[] | undefined {
  return pending.length > mark ? pending.splice(mark) : undefined;
}

/** The errors of `object` validated as `type`, after it was read as class-transformer would (in place). */
export function validateJson(type: DtoClass, object: Record<string, unknown>): ValidationError[] {
  const errors: ValidationError[] = [];
  const mark = pending.length;
  try {
    validateObjectAs(type, object, errors);
  } finally {
    // A constraint that threw leaves nothing behind for the next validation.
    pending.length = mark;
  }
  return errors;
}

/**
 * The errors of only the named properties of `object` as `type`, read in place like the rest: for
 * an object whose other properties were validated already (`extendValidated`).
 */
export function validateJsonProperties(type: DtoClass, object: Record<string, unknown>, names: readonly string[]): ValidationError[] {
  const errors: ValidationError[] = [];
  const { name, plan, shape, nested } = classPlanOf(type);
  readFields(object, shape, names);
  const mark = pending.length;
  try {
    plan.properties.forEach((property, index) => {
      if (names.includes(property.name)) validateProperty(object, name, object[property.name], property, nested[index], errors);
    });
  } finally {
    pending.length = mark;
  }
  return errors;
}

function validateObjectAs(type: DtoClass | undefined, object: Record<string, unknown>, errors: ValidationError[]): void {
  const classPlan = type && classPlanOf(type);
  if (classPlan === undefined || classPlan.plan.properties.length === 0) {
    errors.push(validationError(undefined, undefined, { unknownValue: 'an unknown value was passed to the validate function' }, []));
    return;
  }
  const { name, plan, shape, nested } = classPlan;
  if (!shape.open) {
    for (const key of Object.keys(object)) if (!plan.known.has(key)) delete object[key];
  }
  readFields(object, shape, undefined);
  const { properties } = plan;
  for (let index = 0; index < properties.length; index += 1) {
    const property = properties[index];
    // An open object's undeclared fields stay in place: class-transformer's side bag, which the
    // rule of `undeclaredFields` checks, is always an object.
    if (shape.open && property.name === 'undeclaredFields') continue;
    const value = object[property.name];
    if (nested[index] === undefined && typeof value === 'object' && value !== null) dropInheritedNames(value);
    validateProperty(object, name, value, property, nested[index], errors);
  }
}

/**
 * A value of no DTO class (a free-form object such as `tags` or `custom`), deep: keys that name
 * a member of `Object.prototype` (`toString`, `valueOf`, `hasOwnProperty`, …) are removed.
 * class-transformer copied such values and skipped those keys, which is what was accepted; kept,
 * an own `toString` of 1 would make the object fail wherever it is turned into text.
 */
function dropInheritedNames(value: object): void {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      if (typeof item === 'object' && item !== null) dropInheritedNames(item);
    }
    return;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (key in Object.prototype) delete object[key];
    else if (typeof object[key] === 'object' && object[key] !== null) dropInheritedNames(object[key] as object);
  }
}

/** Defaults where nothing was sent, then each converted field (only `names`, when given). */
function readFields(object: Record<string, unknown>, shape: JsonShape, names: readonly string[] | undefined): void {
  const { defaults, conversions } = shape;
  for (let index = 0; index < defaults.length; index += 1) {
    const name = defaults[index][0];
    if (object[name] === undefined && (names === undefined || names.includes(name))) object[name] = defaults[index][1];
  }
  for (let index = 0; index < conversions.length; index += 1) {
    const name = conversions[index][0];
    if (!(name in object) || (names !== undefined && !names.includes(name))) continue;
    const converted = conversions[index][1](object[name]);
    if (converted !== object[name]) object[name] = converted;
  }
}

function validateProperty(object: object, targetName: string, value: unknown, property: PropertyPlan, nested: NestedJson | undefined, errors: ValidationError[]): void {
  const { conditions } = property;
  for (let index = 0; index < conditions.length; index += 1) {
    const holds = conditions[index].constraints[0] as (object: object, value: unknown) => boolean;
    if (!holds(object, value)) return;
  }
  let failed = checkCustom(object, targetName, value, property.defined, undefined);
  failed = checkCustom(object, targetName, value, property.custom, failed);
  let children: ValidationError[] | undefined;
  if (value !== undefined && property.nested.length > 0) {
    const mark = pending.length;
    for (let index = 0; index < property.nested.length; index += 1) {
      const rule = property.nested[index];
      // Only an array's items are keyed: an object in the array's place is of no class.
      if (Array.isArray(value)) validateNested(value, rule, nested, nested?.keyed ?? false);
      else if (typeof value === 'object' && value !== null) validateNested(value, rule, nested?.keyed ? undefined : nested, false);
      else (failed ??= {})[rule.type] = notAnObject(rule, value);
    }
    children = childErrors(mark);
  }
  if (failed !== undefined || children !== undefined) errors.push(validationError(value, property.name, failed, children ?? []));
}

/**
 * A nested value: an object is validated as its class, an array element by element under its
 * index (class-validator iterates an array at any depth), a keyed item entry by entry under its key.
 */
function validateNested(value: object, rule: ValidationMetadata, nested: NestedJson | undefined, keyed: boolean): void {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) validateElement(value[index], String(index), rule, nested, keyed);
  } else if (keyed) {
    for (const [key, element] of Object.entries(value)) validateElement(element, key, rule, nested, false);
  } else {
    const object = value as Record<string, unknown>;
    validateObjectAs(nested?.classOf(object), object, pending);
  }
}

/** One element of a nested array or keyed item: checked by the nested rule alone. */
function validateElement(element: unknown, key: string, rule: ValidationMetadata, nested: NestedJson | undefined, keyed: boolean): void {
  if (typeof element === 'object' && element !== null) {
    const mark = pending.length;
    validateNested(element, rule, nested, keyed);
    const children = childErrors(mark);
    if (children !== undefined) pending.push(validationError(element, key, undefined, children));
  } else {
    pending.push(validationError(element, key, { [rule.type]: notAnObject(rule, element) }, []));
  }
}

/** The nested rule's message for a value that is no object; class-validator describes it against the declaring class. */
function notAnObject(rule: ValidationMetadata, value: unknown): string {
  const args: ValidationArguments = { targetName: 'Function', property: rule.propertyName, object: rule.target as object, value, constraints: rule.constraints };
  return messageOf(rule, args);
}
