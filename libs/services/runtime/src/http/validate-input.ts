import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';
import { formatValidationErrors } from './validation-error-formatter';

cacheValidationMetadata();

export type InputClass<T> = new () => T;

export type ValidationOutcome<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/**
 * The one validation every boundary uses: unknown fields are dropped (forward compatibility),
 * types are strict (no implicit conversion: "maybe" is not a boolean), and every failing field
 * is reported as `path: rule`.
 */
export async function validateInput<T extends object>(inputClass: InputClass<T>, plain: unknown, what = 'body'): Promise<ValidationOutcome<T>> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return { ok: false, problems: [`${what}: must be a JSON object`] };
  }
  const value = plainToInstance(inputClass, plain, { enableImplicitConversion: false });
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: false, forbidUnknownValues: true, validationError: { target: false, value: true } });
  return errors.length === 0 ? { ok: true, value } : { ok: false, problems: formatValidationErrors(errors) };
}
