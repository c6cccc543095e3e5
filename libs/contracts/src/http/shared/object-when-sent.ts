import { registerDecorator } from 'class-validator';

/**
 * `must be an object` for a value that is sent but is not a JSON object (an array included,
 * which nested validation would iterate instead of refusing). An absent value passes: this is for
 * nested objects whose presence another rule decides (`RequiredUnless`), so they cannot carry
 * `IsOptional` (which would silence that rule) or `IsObject` (which would turn its message into
 * "is required").
 */
export function IsObjectWhenSent(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isObjectWhenSent',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: 'must be an object' },
      validator: {
        validate: (value: unknown) => value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value)),
      },
    });
  };
}
