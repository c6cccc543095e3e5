import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** Fails when both this property and `otherProperty` are present on the same object. */
export function MutuallyExclusiveWith(otherProperty: string, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'mutuallyExclusiveWith',
      target: target.constructor,
      propertyName: propertyName.toString(),
      constraints: [otherProperty],
      options: { message: `must not be sent together with ${otherProperty}`, ...options },
      validator: {
        validate(value: unknown, args: ValidationArguments): boolean {
          const other = (args.object as Record<string, unknown>)[otherProperty];
          return value === undefined || other === undefined;
        },
      },
    });
  };
}

/** Fails when neither this property nor `otherProperty` is present. Put it on one of the two. */
export function RequiredUnless(otherProperty: string, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'requiredUnless',
      target: target.constructor,
      propertyName: propertyName.toString(),
      constraints: [otherProperty],
      options: { message: `is required unless ${otherProperty} is sent`, ...options },
      validator: {
        validate(value: unknown, args: ValidationArguments): boolean {
          const other = (args.object as Record<string, unknown>)[otherProperty];
          return value !== undefined || other !== undefined;
        },
      },
    });
  };
}
