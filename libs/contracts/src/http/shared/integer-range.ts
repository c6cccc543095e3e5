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
