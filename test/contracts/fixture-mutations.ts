/**
 * One-place mutations of a golden fixture, for the specs that hold a validator to
 * class-validator's own answer (compiled-validation.spec.ts, json-validation-parity.spec.ts).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every variant of `value` with one place changed: removed, nulled, retyped, or, for an object, given an unknown field. */
export function* mutations(value: Json): Generator<Json> {
  // `undefined` removes the place.
  const replacements = (current: Json): Array<Json | undefined> =>
    Array.isArray(current) || (typeof current === 'object' && current !== null)
      ? [undefined, null, 'text', [], [7], { unknown: true }]
      : [undefined, null, typeof current === 'string' ? 12 : 'text', { nested: 1 }, ['x'], 'x'.repeat(300)];
  function* at(current: Json, rebuild: (replacement: Json | undefined) => Json): Generator<Json> {
    for (const replacement of replacements(current)) yield rebuild(replacement);
    if (Array.isArray(current)) {
      for (const [index, item] of current.entries()) {
        yield* at(item, (replacement) => rebuild(replacement === undefined ? current.filter((_, i) => i !== index) : current.map((old, i) => (i === index ? replacement : old))));
      }
    } else if (typeof current === 'object' && current !== null) {
      yield rebuild({ ...current, unknownField: 'dropped' });
      for (const key of Object.keys(current)) {
        yield* at(current[key], (replacement) => {
          if (replacement !== undefined) return rebuild({ ...current, [key]: replacement });
          const { [key]: _removed, ...rest } = current;
          return rebuild(rest);
        });
      }
    }
  }
  yield* at(value, (replacement) => replacement ?? {});
}
