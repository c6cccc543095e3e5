import 'reflect-metadata';
import { Type, plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
  Validate,
  ValidatorConstraint,
  type ValidationError,
  type ValidatorConstraintInterface,
  validate,
} from 'class-validator';
import { VALIDATION_OPTIONS, validateCompiled } from './compiled-validator';

class Tag {
  @IsString() @MaxLength(4, { message: '$property of $target is at most $constraint1 long, not "$value"' }) name!: string;
}

class Untyped {
  // No rule at all: an object of this class is an unknown value.
}

class Basket {
  @IsDefined() @IsInt() id!: number;
  @IsOptional() @IsIn(['a', 'b']) kind?: string;
  @IsOptional() @IsString({ each: true }) @ArrayMaxSize(2) labels?: string[];
  @IsOptional() @ValidateNested() @Type(() => Tag) tag?: Tag;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Tag) tags?: Tag[];
  @IsOptional() @ValidateNested() @Type(() => Tag) tagSet?: Set<Tag>;
  @IsOptional() @ValidateNested() @Type(() => Untyped) untyped?: Untyped;
  @ValidateIf((basket: Basket) => basket.kind === 'b') @Matches(/^B/) code?: string;
}

/** The rule class-validator runs, answered the same by both. */
async function expectSameAnswer(plain: object): Promise<ValidationError[]> {
  const reference = plainToInstance(Basket, structuredClone(plain));
  const compiled = plainToInstance(Basket, structuredClone(plain));
  const errors = validateCompiled(compiled);
  expect(errors).toEqual(await validate(reference, { ...VALIDATION_OPTIONS }));
  expect(compiled).toEqual(reference);
  return errors;
}

describe(validateCompiled.name, () => {
  it('accepts a valid object without an error, stripping what has no rule', () => {
    const basket = plainToInstance(Basket, { id: 1, kind: 'a', extra: 'dropped', tag: { name: 'ab', extra: 1 } });
    expect(validateCompiled(basket)).toEqual([]);
    expect(basket).toEqual({ id: 1, kind: 'a', tag: { name: 'ab' } });
  });

  it.each([
    ['a missing required field', {}],
    ['each rule on every element', { id: 1, labels: ['x', 2, 'y'] }],
    ['an array size and its elements at once', { id: 1, labels: ['x', 'y', 3] }],
    ['a nested object with message tokens', { id: 1, tag: { name: 'toolong' } }],
    ['a nested scalar where an object belongs', { id: 1, tag: 'text' }],
    ['nested arrays, by index', { id: 1, tags: [{ name: 'ok' }, { name: 12345 }, 'text', null] }],
    ['a Set of nested objects, by position', { id: 1, tagSet: [{ name: 'ok' }, { name: 'toolong' }] }],
    ['a nested object of a class without rules', { id: 1, untyped: { anything: true } }],
    ['a conditional rule that applies', { id: 1, kind: 'b', code: 'x' }],
    ['a conditional rule that does not apply', { id: 1, kind: 'a', code: 'x' }],
    ['a wrong type at the top and below at once', { id: 'one', kind: 'c', tags: [{ name: null }] }],
  ])('answers as class-validator does on %s', async (title, plain) => {
    const errors = await expectSameAnswer(plain);
    // Every case but one fails, so agreeing on "no error" cannot pass them.
    expect(errors.length > 0).toBe(!title.includes('does not apply'));
  });

  it('gets a Set where the class declares one (so the Set case above tests Sets)', () => {
    expect(plainToInstance(Basket, { id: 1, tagSet: [{ name: 'a' }] }).tagSet).toBeInstanceOf(Set);
  });

  it('refuses, when compiling, a constraint it would run differently', () => {
    @ValidatorConstraint({ name: 'remote', async: true })
    class RemoteCheck implements ValidatorConstraintInterface {
      validate(): Promise<boolean> {
        return Promise.resolve(true);
      }
    }
    class Remote {
      @Validate(RemoteCheck) code!: string;
    }
    expect(() => validateCompiled(plainToInstance(Remote, { code: 'x' }))).toThrow(/asynchronous constraints \(remote\)/);
  });

  it('refuses validation contexts', () => {
    class WithContext {
      @IsString({ context: { severity: 'high' } }) code!: string;
    }
    expect(() => validateCompiled(plainToInstance(WithContext, { code: 'x' }))).toThrow(/validation contexts/);
  });
});
