import { plainToInstance } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { validateCompiled } from './compiled-validator';
import { formatValidationErrors } from './validation-error-formatter';

export type InputClass<T> = new () => T;

export type ValidationOutcome<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/**
 * Every object `validateInput` produced in this process, with the class it was validated as.
 * Weak, so a payload is forgotten with its last reference. Only the objects this module built
 * are in it: nothing outside can add one, so "is in it" means "passed this validation".
 */
const validatedAs = new WeakMap<object, InputClass<object>>();

/**
 * The one validation every boundary uses: unknown fields are dropped (forward compatibility),
 * types are strict (no implicit conversion: "maybe" is not a boolean), and every failing field
 * is reported as `path: rule`.
 */
export function validateInput<T extends object>(inputClass: InputClass<T>, plain: unknown, what = 'body'): ValidationOutcome<T> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return { ok: false, problems: [`${what}: must be a JSON object`] };
  }
  const value = plainToInstance(inputClass, plain, { enableImplicitConversion: false });
  const errors = validateCompiled(value);
  if (errors.length > 0) return { ok: false, problems: formatValidationErrors(errors) };
  validatedAs.set(value, inputClass as InputClass<object>);
  return { ok: true, value };
}

/**
 * Whether `value` is an object `validateInput` produced in this process and validating it again
 * as `inputClass` could only give the same object back. That holds when it was validated as
 * `inputClass` or a subclass of it (`instanceof`), or as a parent that `inputClass` only adds
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
  if (value instanceof inputClass) return true;
  if (!(inputClass.prototype instanceof validatedClass)) return false;
  return addedOptionalFields(inputClass, validatedClass)?.every((field) => (value as Record<string, unknown>)[field] == null) ?? false;
}

const addedFieldsMemo = new Map<InputClass<object>, Map<InputClass<object>, readonly string[] | null>>();

/**
 * The fields `subclass` declares rules for beyond those of `parent`, when every one is optional
 * (class-validator then skips all its rules for an absent value); null when one is not.
 * Memoised: a class's rules are all registered when its module loads, before any instance exists.
 */
function addedOptionalFields(subclass: InputClass<object>, parent: InputClass<object>): readonly string[] | null {
  let byParent = addedFieldsMemo.get(subclass);
  if (!byParent) addedFieldsMemo.set(subclass, (byParent = new Map()));
  if (byParent.has(parent)) return byParent.get(parent) ?? null;
  // Rules declared below `parent`, on new fields or on the parent's own (stricter ones count too).
  const added = getMetadataStorage()
    .getTargetValidationMetadatas(subclass, '', true, false)
    .filter((rule) => rule.target !== parent && !(parent.prototype instanceof (rule.target as InputClass<object>)));
  const fields = [...new Set(added.map((rule) => rule.propertyName))];
  const allOptional = fields.every((field) => added.some((rule) => rule.propertyName === field && rule.name === 'isOptional'));
  const answer = allOptional ? fields : null;
  byParent.set(parent, answer);
  return answer;
}
