import {
  BreachedCredentialsImportRequestDto,
  CredentialsCheckRequestDto,
  CustomerLabelRequestDto,
  LookupAddRequestDto,
  LookupDeleteQueryDto,
  LookupReadQueryDto,
  SupplierLabelRequestDto,
} from '@ringfence/contracts';
import { type InputClass, VALIDATION_OPTIONS, validateCompiled } from '@ringfence/service-runtime';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CUSTOMER_SIDE_ENDPOINTS, PAYMENT_SIDE_ENDPOINTS } from './endpoint-classes';
import { loadFixtures } from './fixture-loader';

/**
 * The compiled validator against class-validator's own `validate()`, which it replaces on the
 * request path: the same errors (values, paths, messages) and the same stripped object, for every
 * golden fixture of every endpoint and for mutations of the largest valid one (every field removed,
 * nulled, retyped, and every object given an unknown field or replaced by a scalar or an array).
 */
const CLASSES: Record<string, { body?: InputClass<object>; query?: InputClass<object> }> = {
  ...CUSTOMER_SIDE_ENDPOINTS,
  ...PAYMENT_SIDE_ENDPOINTS,
  'label-customer': { body: CustomerLabelRequestDto },
  'label-supplier': { body: SupplierLabelRequestDto },
  'lookup-add': { body: LookupAddRequestDto },
  'lookup-read': { query: LookupReadQueryDto },
  'lookup-delete': { query: LookupDeleteQueryDto },
  'lookup-credentials-check': { body: CredentialsCheckRequestDto },
  'lookup-credentials-import': { body: BreachedCredentialsImportRequestDto },
};

const MUTATIONS_PER_FIXTURE = 400;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every variant of `value` with one place changed: removed, nulled, retyped, or, for an object, given an unknown field. */
function* mutations(value: Json): Generator<Json> {
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

async function compare(inputClass: InputClass<object>, plain: unknown): Promise<void> {
  const byClassValidator = plainToInstance(inputClass, structuredClone(plain), { enableImplicitConversion: false });
  const compiled = plainToInstance(inputClass, structuredClone(plain), { enableImplicitConversion: false });
  const expected = await validate(byClassValidator, { ...VALIDATION_OPTIONS });
  expect(validateCompiled(compiled)).toEqual(expected);
  expect(compiled).toEqual(byClassValidator);
}

describe('compiled validation against class-validator', () => {
  describe.each(Object.entries(CLASSES))('%s', (slug, classes) => {
    const { valid, invalid } = loadFixtures(slug);

    it('gives the same answer on every golden fixture', async () => {
      for (const fixture of [...valid, ...invalid]) {
        if (classes.body) await compare(classes.body, fixture.body);
        if (classes.query) await compare(classes.query, fixture.query ?? {});
      }
    });

    it('gives the same answer on one-place mutations of the largest valid fixture', async () => {
      let compared = 0;
      const largest = [...valid].sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length)[0];
      for (const [inputClass, plain] of [
        [classes.body, largest?.body],
        [classes.query, largest?.query ?? {}],
      ] as const) {
        if (!inputClass || typeof plain !== 'object' || plain === null || Array.isArray(plain)) continue;
        const objects = [...mutations(plain as Json)].filter((mutated) => typeof mutated === 'object' && mutated !== null && !Array.isArray(mutated));
        // At most MUTATIONS_PER_FIXTURE, spread evenly over the payload (class-validator, the
        // reference, takes about ten milliseconds for a large one).
        const stride = Math.ceil(objects.length / MUTATIONS_PER_FIXTURE);
        for (let index = 0; index < objects.length; index += stride) {
          await compare(inputClass, objects[index]);
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(5);
    });
  });
});
