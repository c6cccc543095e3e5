import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as contracts from '@ringfence/contracts';
import { VoucherRequestDto } from '@ringfence/contracts';
import { type InputClass, VALIDATION_OPTIONS, type ValidationOutcome, formatValidationErrors, validateInput } from '@ringfence/service-runtime';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate } from 'class-validator';
import { ALL_ENDPOINTS } from './endpoint-classes';
import { FIXTURES_DIRECTORY } from './fixture-loader';
import { type Json, mutations } from './fixture-mutations';

/**
 * The validation on parsed JSON against the reference it replaced on the request path:
 * class-transformer's `plainToInstance` (strict) and class-validator's own `validate()`. For every
 * golden fixture (`test/contracts/fixtures/<slug>/{valid,invalid}`) and one-place mutations of
 * every valid one (each place removed, nulled, retyped, an object given an unknown field), both
 * accept or refuse, with the same problems, and what is accepted is the reference instance's JSON.
 */
/** At most this many mutations of one valid fixture, spread evenly over it (the reference takes milliseconds each). */
const MUTATIONS_PER_FIXTURE = 150;

// Not structuredClone: under Jest it makes objects of another realm, which class-validator's
// `instanceof Object` does not take for objects.
const copyOf = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

interface Fixture {
  readonly name: string;
  readonly body?: Json;
  readonly query?: Json;
}

function fixturesOf(slug: string, kind: 'valid' | 'invalid'): Fixture[] {
  const directory = join(FIXTURES_DIRECTORY, slug, kind);
  return readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ name: `${slug}/${kind}/${file}`, ...(JSON.parse(readFileSync(join(directory, file), 'utf8')) as { body?: Json; query?: Json }) }));
}

/** What the replaced path answered: class-transformer's instance, validated by class-validator. */
async function reference(inputClass: InputClass<object>, plain: Json): Promise<ValidationOutcome<unknown>> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) return validateInput(inputClass, plain);
  const instance = plainToInstance(inputClass, copyOf(plain), { enableImplicitConversion: false });
  const errors = await validate(instance, { ...VALIDATION_OPTIONS });
  return errors.length > 0 ? { ok: false, problems: formatValidationErrors(errors) } : { ok: true, value: JSON.parse(JSON.stringify(instance)) as unknown };
}

async function expectParity(inputClass: InputClass<object>, plain: Json, name: string): Promise<void> {
  const expected = await reference(inputClass, plain);
  const outcome = validateInput(inputClass, copyOf(plain));
  const actual = outcome.ok ? { ok: true, value: JSON.parse(JSON.stringify(outcome.value)) as unknown } : outcome;
  // The fixture's name in the difference says which input differed.
  expect({ name, ...actual }).toEqual({ name, ...expected });
}

describe('validateInput on parsed JSON against class-transformer and class-validator', () => {
  it('has a JSON reading of every contracts class with rules that agrees with class-transformer', () => {
    const withRules = Object.entries(contracts).filter(
      ([, value]) => typeof value === 'function' && value.prototype !== undefined && getMetadataStorage().getTargetValidationMetadatas(value, '', true, false).length > 0,
    );
    // jsonShapeOf throws for a property whose transform has no reading, or a reading class-transformer disagrees with.
    const unread = withRules.flatMap(([name, type]) => {
      try {
        contracts.jsonShapeOf(type as contracts.DtoClass);
        return [];
      } catch (error) {
        return [`${name}: ${(error as Error).message}`];
      }
    });
    expect(unread).toEqual([]);
    expect(withRules.length).toBeGreaterThan(100);
  });

  it('drops keys named like members of Object.prototype from free-form objects, as class-transformer did', async () => {
    const [full] = fixturesOf('voucher', 'valid').filter((fixture) => fixture.name.endsWith('/full.json'));
    const body = copyOf(full!.body) as { voucher: { custom: Record<string, Json> } };
    body.voucher.custom = { ...body.voucher.custom, toString: 'x', partner: { valueOf: 1, keep: 2 }, list: [{ hasOwnProperty: true, keep: 3 }] };
    await expectParity(VoucherRequestDto, body as unknown as Json, 'voucher custom with inherited names');
    const outcome = validateInput(VoucherRequestDto, copyOf(body));
    expect(outcome.ok && (outcome.value as typeof body).voucher.custom).toMatchObject({ partner: { keep: 2 }, list: [{ keep: 3 }] });
    expect(outcome.ok && Object.keys((outcome.value as typeof body).voucher.custom)).not.toContain('toString');
  });

  it('covers every fixture folder', () => {
    const slugs = readdirSync(FIXTURES_DIRECTORY, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(Object.keys(ALL_ENDPOINTS).sort()).toEqual(slugs.sort());
  });

  describe.each(Object.entries(ALL_ENDPOINTS))('%s', (slug, classes) => {
    const valid = fixturesOf(slug, 'valid');
    const invalid = fixturesOf(slug, 'invalid');

    it('answers every golden fixture as the reference does', async () => {
      let accepted = 0;
      for (const fixture of [...valid, ...invalid]) {
        if (classes.body) await expectParity(classes.body, fixture.body ?? null, fixture.name);
        if (classes.query) await expectParity(classes.query, fixture.query ?? {}, `${fixture.name} (query)`);
        if (valid.includes(fixture) && classes.body) accepted += validateInput(classes.body, copyOf(fixture.body)).ok ? 1 : 0;
      }
      // The valid ones are accepted (a comparison of two refusals alone would prove little).
      if (classes.body) expect(accepted).toBe(valid.length);
    });

    it('answers one-place mutations of every valid fixture as the reference does', async () => {
      let compared = 0;
      for (const fixture of valid) {
        for (const [inputClass, plain, part] of [
          [classes.body, fixture.body, 'body'],
          [classes.query, fixture.query ?? {}, 'query'],
        ] as const) {
          if (!inputClass || typeof plain !== 'object' || plain === null || Array.isArray(plain)) continue;
          const variants = [...mutations(plain)];
          const stride = Math.ceil(variants.length / MUTATIONS_PER_FIXTURE);
          for (let index = 0; index < variants.length; index += stride) {
            await expectParity(inputClass, variants[index] as Json, `${fixture.name} ${part} mutation ${index}`);
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(5);
    });
  });
});
