import { getMetadataStorage, type MetadataStorage, type ValidationArguments, ValidationError, type ValidatorConstraintInterface, ValidationTypes } from 'class-validator';

// class-validator exports its storage but not the types of what it stores.
export type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type ConstraintMetadata = ReturnType<MetadataStorage['getTargetValidatorConstraints']>[number];

/**
 * class-validator's rules, read once per class and run without its executor.
 *
 * `validate()` looks a class's rules up again for every object it validates (it filters the
 * class's own rules and then tests every registered class for ancestry: typestack/class-validator
 * #2686), regroups them per property, and builds an error object for every property before
 * throwing the empty ones away. On the gateway's payloads (a full refund holds about thirty nested
 * objects) that was the largest single cost of a request. This module asks class-validator's
 * public metadata storage for each class's rules once, keeps them grouped, and runs the very
 * constraint instances the decorators registered, allocating only for what fails.
 *
 * It does what `validate(object, VALIDATION_OPTIONS)` does, synchronously, and nothing else:
 * unknown properties are removed (whitelist), an object of a class without rules is an unknown
 * value, errors carry the value but not the target, and no groups are asked for. The spec holds
 * it to class-validator's own answer on every golden fixture and on mutations of them. What it
 * does not support (asynchronous constraints, validation contexts) throws when a class is
 * compiled, so a new decorator that needs them fails its first test rather than validating
 * differently.
 *
 * A class's rules are complete once its module has loaded (decorators run when the class is
 * defined), and a class is compiled when its first object is validated, so the memo never holds
 * rules that are missing a decorator.
 *
 * On the request path the plan is walked over the parsed JSON itself (`json-validator.ts`,
 * through `validateInput`), with no instance. `validateCompiled` walks it over class-transformer
 * instances, as class-validator does: `test/contracts/compiled-validation.spec.ts` holds that
 * form to class-validator error for error, and `npm run bench:validation` times it as the path
 * that was replaced.
 */
export const VALIDATION_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: false,
  forbidUnknownValues: true,
  validationError: { target: false, value: true },
} as const;

/** One custom rule of a property with the constraint that checks it. */
export interface CustomRule {
  readonly metadata: ValidationMetadata;
  readonly constraint: ConstraintMetadata;
  /**
   * The constraint's validator, fetched once: `constraint.instance` asks class-validator's
   * container again on every read, a linear search of every constraint class, which was about
   * half of a validation's time.
   */
  readonly validator: ValidatorConstraintInterface;
  /** The key of the error's `constraints` map: the constraint's name, else the rule's type. */
  readonly type: string;
}

export interface PropertyPlan {
  readonly name: string;
  /** `@ValidateIf` / `@IsOptional`: the property is checked only when every condition holds. */
  readonly conditions: readonly ValidationMetadata[];
  /** `@IsDefined`, checked before the others. */
  readonly defined: readonly CustomRule[];
  readonly custom: readonly CustomRule[];
  /** `@ValidateNested`. */
  readonly nested: readonly ValidationMetadata[];
  /** How each element of an array, Set or Map value is checked: by the nested rules alone. */
  readonly elements: PropertyPlan | undefined;
}

export interface ClassPlan {
  readonly properties: readonly PropertyPlan[];
  /** Every property that has a rule of any kind: the rest are stripped (whitelist). */
  readonly known: ReadonlySet<string>;
}

export type FailedRules = Record<string, string> | undefined;

const plans = new Map<unknown, ClassPlan>();

/**
 * The errors class-validator's `validate(object, VALIDATION_OPTIONS)` would give for `object`
 * (an instance of a decorated class), after stripping its unknown properties as that does.
 */
export function validateCompiled(object: object): ValidationError[] {
  const errors: ValidationError[] = [];
  validateObject(object, errors);
  return errors;
}

/** The rules of a class, grouped per property, read once. */
export function planOf(constructor: unknown): ClassPlan {
  let plan = plans.get(constructor);
  if (plan === undefined) {
    plan = compile(constructor as new () => object);
    plans.set(constructor, plan);
  }
  return plan;
}

function compile(target: new () => object): ClassPlan {
  const storage = getMetadataStorage();
  const rules = storage.getTargetValidationMetadatas(target, '', false, false);
  const unsupported = rules.find((rule) => rule.context !== undefined || rule.type === ValidationTypes.PROMISE_VALIDATION);
  if (unsupported) throw new Error(`${target.name}.${unsupported.propertyName}: the compiled validator supports neither validation contexts nor promises`);
  const withConstraints = (metadata: ValidationMetadata): CustomRule[] =>
    storage.getTargetValidatorConstraints(metadata.constraintCls).map((constraint) => {
      if (constraint.async) throw new Error(`${target.name}.${metadata.propertyName}: the compiled validator does not run asynchronous constraints (${constraint.name})`);
      return { metadata, constraint, validator: constraint.instance, type: constraint.name || metadata.type };
    });
  const ofType = (metadatas: ValidationMetadata[], type: string): ValidationMetadata[] => metadatas.filter((rule) => rule.type === type);
  const byProperty = storage.groupByPropertyName(rules);
  const properties = Object.entries(byProperty).map(([name, metadatas]): PropertyPlan => {
    const nested = ofType(metadatas, ValidationTypes.NESTED_VALIDATION);
    return {
      name,
      conditions: ofType(metadatas, ValidationTypes.CONDITIONAL_VALIDATION),
      defined: ofType(metadatas, ValidationTypes.IS_DEFINED).flatMap(withConstraints),
      custom: ofType(metadatas, ValidationTypes.CUSTOM_VALIDATION).flatMap(withConstraints),
      nested,
      elements: nested.length > 0 ? elementPlan(name, nested) : undefined,
    };
  });
  return { properties, known: new Set(Object.keys(byProperty)) };
}

/** An element is checked by its property's nested rules alone (and its own elements likewise). */
function elementPlan(name: string, nested: readonly ValidationMetadata[]): PropertyPlan {
  const plan: { -readonly [K in keyof PropertyPlan]: PropertyPlan[K] } = { name, conditions: [], defined: [], custom: [], nested, elements: undefined };
  plan.elements = plan;
  return plan;
}

function validateObject(object: object, errors: ValidationError[]): void {
  const plan = planOf(object.constructor);
  if (plan.properties.length === 0) {
    errors.push(validationError(undefined, undefined, { unknownValue: 'an unknown value was passed to the validate function' }, []));
    return;
  }
  const fields = object as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!plan.known.has(key)) delete fields[key];
  for (const property of plan.properties) validateProperty(object, fields[property.name], property.name, property, errors);
}

function validateProperty(object: object, value: unknown, name: string, property: PropertyPlan, errors: ValidationError[]): void {
  for (const condition of property.conditions) {
    const holds = condition.constraints[0] as (object: object, value: unknown) => boolean;
    if (!holds(object, value)) return;
  }
  const targetName = object.constructor?.name;
  let failed = checkCustom(object, targetName, value, property.defined, undefined);
  failed = checkCustom(object, targetName, value, property.custom, failed);
  let children: ValidationError[] | undefined;
  if (value !== undefined && property.elements !== undefined) {
    for (const nested of property.nested) {
      if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
        // The error of an element is under its index (a Set's elements by position).
        const elements = value instanceof Set ? [...value] : value;
        elements.forEach((element: unknown, index: unknown) => validateProperty(value, element, String(index), property.elements as PropertyPlan, (children ??= [])));
      } else if (value instanceof Object) {
        validateObject(value, (children ??= []));
      } else {
        // class-validator describes this failure against the declaring class, not the object.
        const args: ValidationArguments = { targetName: 'Function', property: nested.propertyName, object: nested.target as object, value, constraints: nested.constraints };
        (failed ??= {})[nested.type] = messageOf(nested, args);
      }
    }
  }
  if (failed !== undefined || (children !== undefined && children.length > 0)) errors.push(validationError(value, name, failed, children ?? []));
}

/**
 * The arguments every rule is called with, one object for all of them: a constraint reads them
 * during its call only (every rule runs synchronously), so they are filled in for each rule and
 * let go of after. A validation of a full refund calls a few hundred rules; an object apiece was
 * most of what validating it allocated.
 */
const ruleArguments: ValidationArguments = { targetName: '', property: '', object: {}, value: undefined, constraints: [] };

/**
 * Runs the rules against the value of `object` (of the class named `targetName`); returns
 * `failed` with a message added per broken rule.
 */
export function checkCustom(object: object, targetName: string, value: unknown, rules: readonly CustomRule[], failed: FailedRules): FailedRules {
  if (rules.length === 0) return failed;
  const args = ruleArguments;
  args.targetName = targetName;
  args.property = rules[0].metadata.propertyName;
  args.object = object;
  args.value = value;
  // Indexed loops here and in the walks: a for-of's iterator is not always optimised away, and
  // these loops run for every property of every request.
  for (let index = 0; index < rules.length; index += 1) {
    const { metadata, constraint, validator, type } = rules[index];
    if (metadata.validateIf && !metadata.validateIf(object, value)) continue;
    args.constraints = metadata.constraints;
    const valid =
      metadata.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)
        ? [...(value instanceof Map ? value.values() : value)].every((item) => isValid(validator.validate(item, args), constraint))
        : isValid(validator.validate(value, args), constraint);
    if (!valid) (failed ??= {})[type] = messageOf(metadata, args, validator);
  }
  // Not kept past the call: the request's objects are not held by this module.
  args.object = EMPTY;
  args.value = undefined;
  return failed;
}

const EMPTY = {};

function isValid(answer: boolean | Promise<boolean>, constraint: ConstraintMetadata): boolean {
  if (answer instanceof Promise) throw new Error(`constraint ${constraint.name} answered a promise: the compiled validator runs synchronous constraints only`);
  return Boolean(answer);
}

export function validationError(value: unknown, property: string | undefined, constraints: FailedRules, children: ValidationError[]): ValidationError {
  const error = new ValidationError();
  error.value = value;
  error.property = property as string;
  error.children = children;
  if (constraints !== undefined) error.constraints = constraints;
  return error;
}

/** The rule's message, or its constraint's default one, with class-validator's `$` tokens filled in. */
export function messageOf(metadata: ValidationMetadata, args: ValidationArguments, validator?: ValidatorConstraintInterface): string {
  const template = metadata.message || (typeof validator?.defaultMessage === 'function' ? validator.defaultMessage(args) : '');
  let message = typeof template === 'function' ? template(args) : template;
  if (!message) return message;
  if (Array.isArray(args.constraints)) {
    args.constraints.forEach((value: unknown, index) => {
      message = message.replace(new RegExp(`\\$constraint${index + 1}`, 'g'), constraintText(value));
    });
  }
  const { value } = args;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') message = message.replace(/\$value/g, String(value));
  return message.replace(/\$property/g, args.property).replace(/\$target/g, String(args.targetName));
}

function constraintText(constraint: unknown): string {
  if (Array.isArray(constraint)) return constraint.join(', ');
  if (typeof constraint === 'symbol') return String(constraint.description);
  return String(constraint);
}
