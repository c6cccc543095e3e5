import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as contracts from '@ringfence/contracts';
import {
  BreachedCredentialsImportRequestDto,
  ConnectQueryDto,
  ConnectRequestDto,
  CredentialsCheckRequestDto,
  CustomerLabelRequestDto,
  CustomerRequestDto,
  LookupAddRequestDto,
  LookupDeleteQueryDto,
  LookupReadQueryDto,
  PayoutRequestDto,
  PspDisputeRequestDto,
  PspTransactionQueryDto,
  PspTransactionRequestDto,
  RefundRequestDto,
  RegistrationRequestDto,
  SupplierLabelRequestDto,
  SupplierRequestDto,
  VoucherCheckRequestDto,
  VoucherRedemptionQueryDto,
  VoucherRedemptionRequestDto,
  VoucherRequestDto,
} from '@ringfence/contracts';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate } from 'class-validator';
import { VALIDATION_OPTIONS } from './compiled-validator';
import { type InputClass, type ValidationOutcome, validateInput } from './validate-input';
import { formatValidationErrors } from './validation-error-formatter';

/**
 * The validation on parsed JSON against the reference it replaced on the request path:
 * class-transformer's `plainToInstance` (strict) and class-validator's own `validate()`. For every
 * golden fixture (`test/contracts/fixtures/<slug>/{valid,invalid}`) and one-place mutations of
 * every valid one (each place removed, nulled, retyped, an object given an unknown field), both
 * accept or refuse, with the same problems, and what is accepted is the reference instance's JSON.
 */
const FIXTURES = join(__dirname, '../../../../../test/contracts/fixtures');

/** The classes the gateway validates each fixture slug's body and query with. */
const CLASSES: Record<string, { body?: InputClass<object>; query?: InputClass<object> }> = {
  connect: { body: ConnectRequestDto, query: ConnectQueryDto },
  customer: { body: CustomerRequestDto },
  supplier: { body: SupplierRequestDto },
  registration: { body: RegistrationRequestDto },
  'voucher-redemption': { body: VoucherRedemptionRequestDto, query: VoucherRedemptionQueryDto },
  voucher: { body: VoucherRequestDto },
  'voucher-check': { body: VoucherCheckRequestDto },
  'psp-transaction': { body: PspTransactionRequestDto, query: PspTransactionQueryDto },
  'psp-dispute': { body: PspDisputeRequestDto },
  payout: { body: PayoutRequestDto },
  refund: { body: RefundRequestDto },
  'label-customer': { body: CustomerLabelRequestDto },
  'label-supplier': { body: SupplierLabelRequestDto },
  'lookup-add': { body: LookupAddRequestDto },
  'lookup-read': { query: LookupReadQueryDto },
  'lookup-delete': { query: LookupDeleteQueryDto },
  'lookup-credentials-check': { body: CredentialsCheckRequestDto },
  'lookup-credentials-import': { body: BreachedCredentialsImportRequestDto },
};

/** At most this many mutations of one valid fixture, spread evenly over it (the reference takes milliseconds each). */
const MUTATIONS_PER_FIXTURE = 150;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Not structuredClone: under Jest it makes objects of another realm, which class-validator's
// `instanceof Object` does not take for objects.
const copyOf = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

interface Fixture {
  readonly name: string;
  readonly body?: Json;
  readonly query?: Json;
}

function fixturesOf(slug: string, kind: 'valid' | 'invalid'): Fixture[] {
  const directory = join(FIXTURES, slug, kind);
  return readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ name: `${slug}/${kind}/${file}`, ...(JSON.parse(readFileSync(join(directory, file), 'utf8')) as { body?: Json; query?: Json }) }));
}

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
    const slugs = readdirSync(FIXTURES, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(Object.keys(CLASSES).sort()).toEqual(slugs.sort());
  });

  describe.each(Object.entries(CLASSES))('%s', (slug, classes) => {
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
