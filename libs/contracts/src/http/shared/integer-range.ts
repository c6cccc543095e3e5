import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * An integer within [minimum, maximum] (no maximum when omitted), with one message that states the
 * whole rule. IsInt + Min + Max would report three joined rules for a single wrong value.
 */
export function IsIntegerInRange(minimum: number, maximum?: number, options?: ValidationOptions): PropertyDecorator {
  const rule = maximum === undefined ? `must be an integer of at least ${minimum}` : `must be an integer from ${minimum} to ${maximum}`;
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isIntegerInRange',
      target: target.constructor,
      propertyName: propertyName.toString(),
      constraints: [minimum, maximum],
      options: { message: rule, ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isInteger(value) && value >= minimum && (maximum === undefined || value <= maximum),
      },
    });
  };
}

/**
 * The integers a request may carry: ±(2^53 − 1), the ones a JSON number holds exactly (ADR-0016).
 * `1e30` is an integer to `IsInt`, but it has lost its digits already, and a sum or a
 * `bigint` column it reaches overflows.
 */
export const MAX_ACCEPTED_INTEGER = Number.MAX_SAFE_INTEGER;
export const SAFE_INTEGER_RULE = `must be from -${MAX_ACCEPTED_INTEGER} to ${MAX_ACCEPTED_INTEGER} (±(2^53 − 1))`;

/**
 * An integer within ±(2^53 − 1). Only integers are judged: `IsInt` beside it reports anything
 * else, so `"12"` gets one message, not two.
 */
export function IsWithinSafeIntegers(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isWithinSafeIntegers',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: SAFE_INTEGER_RULE, ...options },
      validator: { validate: (value: unknown) => !Number.isInteger(value) || Number.isSafeInteger(value) },
    });
  };
}
