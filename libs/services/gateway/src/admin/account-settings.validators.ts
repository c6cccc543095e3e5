import { type ValidationArguments, type ValidationOptions, registerDecorator } from 'class-validator';
import { ALLOWED_ORIGIN_RULE, CALLBACK_URL_RULE, allowedOriginProblem, callbackUrlProblem } from '@ringfence/accounts';

/**
 * `callbackUrl`, `testCallbackUrl`: an http(s) URL without credentials (the rule of
 * `callbackUrlProblem`). Where it may reach is checked when it is saved, by resolving its host
 * (`AccountAdministration.updateSettings`, ADR-0016).
 */
export function IsCallbackUrl(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isCallbackUrl',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: CALLBACK_URL_RULE, ...options },
      validator: { validate: (value: unknown) => callbackUrlProblem(value) === null },
    });
  };
}

/** An item of `allowedOrigins`: an exact origin (`allowedOriginProblem`); `{ each: true }` for the list's items. */
export function IsAllowedOrigin(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isAllowedOrigin',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: options?.each ? `each item ${ALLOWED_ORIGIN_RULE}` : ALLOWED_ORIGIN_RULE, ...options },
      validator: { validate: (value: unknown) => allowedOriginProblem(value) === null },
    });
  };
}

/**
 * An object whose keys are all among `allowed`. Unknown fields are otherwise dropped silently
 * (forward compatibility), but a key of a settings map is a value the operator chose: a
 * misspelt checkpoint would set nothing and say nothing.
 */
export function HasOnlyKeys(allowed: readonly string[], what: string, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'hasOnlyKeys',
      target: target.constructor,
      propertyName: propertyName.toString(),
      constraints: [allowed],
      options: {
        message: ({ value }: ValidationArguments) => {
          const unknown = Object.keys(value as object).filter((key) => !allowed.includes(key));
          return `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not ${what} (${allowed.join(', ')})`;
        },
        ...options,
      },
      validator: {
        // Anything but a plain object is left to the property's other rules (IsObject).
        validate: (value: unknown) => typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).every((key) => allowed.includes(key)),
      },
    });
  };
}

/** A number not below the sibling field `other` (skipped while either is not a number: their own rules report that). */
export function IsNotBelowField(other: string, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isNotBelowField',
      target: target.constructor,
      propertyName: propertyName.toString(),
      constraints: [other],
      options: { message: `must be at least ${other}`, ...options },
      validator: {
        validate: (value: unknown, { object }: ValidationArguments) => {
          const bound = (object as Record<string, unknown>)[other];
          return typeof value !== 'number' || typeof bound !== 'number' || value >= bound;
        },
      },
    });
  };
}

const CURRENCY_CODE = /^[A-Z]{3}$/;
/** Currencies one limit map may name. */
const MAX_LIMIT_CURRENCIES = 50;

/**
 * A map from ISO 4217 currency code (three capital letters) to a positive amount in major units,
 * such as `{"EUR": 30, "GBP": 25}`: the 3-D Secure exemption limits of `transactionOptimisation`.
 */
export function IsCurrencyLimitMap(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isCurrencyLimitMap',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: 'must map ISO 4217 currency codes (EUR) to positive amounts in major units', ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= MAX_LIMIT_CURRENCIES &&
          Object.entries(value).every(([currency, amount]) => CURRENCY_CODE.test(currency) && typeof amount === 'number' && Number.isFinite(amount) && amount > 0 && amount <= 1e9),
      },
    });
  };
}
