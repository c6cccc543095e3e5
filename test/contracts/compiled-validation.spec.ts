import { type InputClass, VALIDATION_OPTIONS, validateCompiled } from '@ringfence/service-runtime';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ALL_ENDPOINTS } from './endpoint-classes';
import { loadFixtures } from './fixture-loader';
import { type Json, mutations } from './fixture-mutations';

/**
 * The compiled validator against class-validator's own `validate()`, which it replaces on the
 * request path: the same errors (values, paths, messages) and the same stripped object, for every
 * golden fixture of every endpoint and for mutations of the largest valid one (every field removed,
 * nulled, retyped, and every object given an unknown field or replaced by a scalar or an array).
 */
const MUTATIONS_PER_FIXTURE = 400;

async function compare(inputClass: InputClass<object>, plain: unknown): Promise<void> {
  const byClassValidator = plainToInstance(inputClass, structuredClone(plain), { enableImplicitConversion: false });
  const compiled = plainToInstance(inputClass, structuredClone(plain), { enableImplicitConversion: false });
  const expected = await validate(byClassValidator, { ...VALIDATION_OPTIONS });
  expect(validateCompiled(compiled)).toEqual(expected);
  expect(compiled).toEqual(byClassValidator);
}

describe('compiled validation against class-validator', () => {
  describe.each(Object.entries(ALL_ENDPOINTS))('%s', (slug, classes) => {
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
