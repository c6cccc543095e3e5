import { registerDecorator, type ValidationOptions } from 'class-validator';

/** `tags`: an object mapping tag name to boolean (specification §2.1). */
export function IsTagMap(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isTagMap',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: 'must be an object mapping tag names to booleans', ...options },
      validator: {
        validate(value: unknown): boolean {
          return (
            typeof value === 'object' &&
            value !== null &&
            !Array.isArray(value) &&
            Object.values(value).every((flag) => typeof flag === 'boolean')
          );
        },
      },
    });
  };
}
