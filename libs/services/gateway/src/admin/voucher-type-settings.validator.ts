import { type ValidationOptions, registerDecorator } from 'class-validator';

export const VOUCHER_THRESHOLD_COMPARISONS = ['gte', 'gt'] as const;

const MAX_VOUCHER_TYPES = 100;
const isInteger = (value: unknown, minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  typeof value === 'number' && Number.isInteger(value) && value >= minimum && value <= maximum;

/** The first problem of one voucher type's settings, or null. */
function problemOf(type: string, settings: unknown): string | null {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return `${type} must be an object`;
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'depth' && !isInteger(value, 1, 10)) return `${type}.depth must be an integer from 1 to 10`;
    if (key === 'threshold' && !isInteger(value, 1)) return `${type}.threshold must be a positive integer`;
    if (key === 'comparison' && !(VOUCHER_THRESHOLD_COMPARISONS as readonly unknown[]).includes(value)) return `${type}.comparison must be one of gte, gt`;
    if (!['depth', 'threshold', 'comparison'].includes(key)) return `${type}.${key} is not a setting (depth, threshold, comparison)`;
  }
  return null;
}

/**
 * `voucherTypes`: a map from voucher type to `{depth?, threshold?, comparison?}`. A map of
 * classes is beyond class-transformer's `@Type`, so the values are checked here, each problem
 * named by its path.
 */
export function IsVoucherTypeSettingsMap(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    let problem: string | null = null;
    registerDecorator({
      name: 'isVoucherTypeSettingsMap',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: () => `must map voucher types to settings: ${problem ?? 'invalid'}`, ...options },
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            problem = 'not an object';
            return false;
          }
          const entries = Object.entries(value);
          if (entries.length > MAX_VOUCHER_TYPES) {
            problem = `at most ${MAX_VOUCHER_TYPES} voucher types`;
            return false;
          }
          for (const [type, settings] of entries) {
            problem = problemOf(type, settings);
            if (problem !== null) return false;
          }
          return true;
        },
      },
    });
  };
}
