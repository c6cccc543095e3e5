import { rememberReadAs } from '@ringfence/contracts';
import { getMetadataStorage } from 'class-validator';
import { validateJson, validateJsonProperties } from './json-validator';
import { formatValidationErrors } from './validation-error-formatter';

export type InputClass<T> = new () => T;

export type ValidationOutcome<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/**
 * Every object `validateInput` (or `extendValidated`) accepted in this process, with the class it
 * was validated as. Weak, so a payload is forgotten with its last reference. Only this module
 * adds to it, so "is in it" means "passed this validation".
 */
const validatedAs = new WeakMap<object, InputClass<object>>();

/**
 * The one validation every boundary uses: unknown fields are dropped (forward compatibility),
 * types are strict (no implicit conversion: "maybe" is not a boolean), and every failing field
 * is reported as `path: rule`.
 *
 * `plain` is parsed JSON that the caller owns: it is validated and read in place
 * (`json-validator.ts`: unknown fields removed, the DTOs' conversions applied) and handed back
 * as the value, typed as `inputClass` but an instance of no class. Its JSON is what
 * `JSON.stringify(plainToInstance(inputClass, plain))` gave. An object someone else still reads
 * (a payload the in-process bus shares) must be copied first (`validated-handler.ts` does).
 */
export function validateInput<T extends object>(inputClass: InputClass<T>, plain: unknown, what = 'body'): ValidationOutcome<T> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return { ok: false, problems: [`${what}: must be a JSON object`] };
  }
  const errors = validateJson(inputClass, plain as Record<string, unknown>);
  if (errors.length > 0) return { ok: false, problems: formatValidationErrors(errors) };
  remember(plain, inputClass as InputClass<object>);
  return { ok: true, value: plain as T };
}

/**
 * Whether `value` is an object `validateInput` produced in this process and validating it again
 * as `inputClass` could only give the same object back. That holds when it was validated as
 * `inputClass` or a subclass of it, or as a parent that `inputClass` only adds
 * optional fields to that `value` does not have: the ingest events are their request bodies
 * under a topic's name (`CustomerUpdatedEvent extends CustomerRequestDto {}`), and the
 * transaction event adds an optional `checkpoint` that only the /async path sets.
 *
 * Anything else (JSON from Kafka or from the event log after a restart, objects built by hand,
 * a parent class validated as a stricter child) is not, and must be validated. The caller must
 * not have changed the object's fields since (the bus hands the same object to every consumer,
 * none of which writes to it).
 */
export function isValidatedAs(value: unknown, inputClass: InputClass<object>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const validatedClass = validatedAs.get(value);
  if (validatedClass === undefined) return false;
  if (validatedClass === inputClass || validatedClass.prototype instanceof inputClass) return true;
  if (!(inputClass.prototype instanceof validatedClass)) return false;
  const added = addedRules(inputClass, validatedClass);
  return added.allOptional && added.fields.every((field) => (value as Record<string, unknown>)[field] == null);
}

/**
 * `validated` (an object `validateInput` produced) with `additions` set, as `inputClass`, a
 * subclass of the class it was validated as: the transaction checkpoint's request is the ingest
 * event with the `checkpoint` the query asked for. Only the fields whose rules `inputClass` adds
 * (on its new fields or, stricter, on its parent's) are validated again; the rest of the object,
 * nested objects included, is shared with `validated`, which is not changed. Anything else
 * (`validated` not produced here, `inputClass` not a subclass, an addition to a field the
 * subclass adds no rule to) is validated whole, as a copy.
 */
export function extendValidated<T extends object>(inputClass: InputClass<T>, validated: object, additions: Partial<T>): ValidationOutcome<T> {
  const validatedClass = validatedAs.get(validated);
  const added = validatedClass && inputClass.prototype instanceof validatedClass ? addedRules(inputClass, validatedClass) : undefined;
  if (!added || !Object.keys(additions).every((field) => added.fields.includes(field))) {
    return validateInput(inputClass, JSON.parse(JSON.stringify({ ...validated, ...additions })) as unknown);
  }
  const value: Record<string, unknown> = { ...validated, ...additions };
  const errors = validateJsonProperties(inputClass, value, added.fields);
  if (errors.length > 0) return { ok: false, problems: formatValidationErrors(errors) };
  remember(value, inputClass as InputClass<object>);
  return { ok: true, value: value as T };
}

/** Marks `value` as validated here (`isValidatedAs`) and as read as `inputClass` (`normaliseTimestamps` walks it by that class). */
function remember(value: object, inputClass: InputClass<object>): void {
  validatedAs.set(value, inputClass);
  rememberReadAs(value, inputClass);
}

interface AddedRules {
  /** The fields `subclass` declares rules for beyond those of `parent`: new ones, or stricter rules on the parent's. */
  readonly fields: readonly string[];
  /** Whether every one of them is optional (class-validator then skips all its rules for an absent value). */
  readonly allOptional: boolean;
}

const addedRulesMemo = new Map<InputClass<object>, Map<InputClass<object>, AddedRules>>();

/**
 * What `subclass` adds to `parent`'s rules. Memoised: a class's rules are all registered when
 * its module loads, before any instance exists.
 */
function addedRules(subclass: InputClass<object>, parent: InputClass<object>): AddedRules {
  let byParent = addedRulesMemo.get(subclass);
  if (!byParent) addedRulesMemo.set(subclass, (byParent = new Map()));
  let answer = byParent.get(parent);
  if (answer === undefined) {
    // Rules declared below `parent`, on new fields or on the parent's own (stricter ones count too).
    const added = getMetadataStorage()
      .getTargetValidationMetadatas(subclass, '', true, false)
      .filter((rule) => rule.target !== parent && !(parent.prototype instanceof (rule.target as InputClass<object>)));
    const fields = [...new Set(added.map((rule) => rule.propertyName))];
    const allOptional = fields.every((field) => added.some((rule) => rule.propertyName === field && rule.name === 'isOptional'));
    answer = { fields, allOptional };
    byParent.set(parent, answer);
  }
  return answer;
}
