import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, registerDecorator, type ValidationOptions } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';

/**
 * `tags`: an object mapping tag name to boolean (specification §2.1). A tag name is at most 300
 * characters, as the tag names of `tagNames` are: the graph keys a customer's tags by name, and a
 * key column holds a few kilobytes at most (ADR-0016).
 */
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
    registerDecorator({
      name: 'tagNamesWithinLength',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: `must have tag names of at most ${MAX_IDENTIFIER_LENGTH} characters`, ...options },
      validator: {
        // Anything but an object is isTagMap's to report.
        validate: (value: unknown) => typeof value !== 'object' || value === null || Object.keys(value).every((name) => name.length <= MAX_IDENTIFIER_LENGTH),
      },
    });
  };
}

/** An optional `tags` map of a customer or supplier object, documented as the map it is. */
export function IsOptionalTagMap(example: Record<string, boolean>, description = 'Tag name to boolean.'): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'boolean' }, example, description: `${description} Tag names of at most ${MAX_IDENTIFIER_LENGTH} characters.` }),
    // In the order of the former `@IsOptional() @IsObject() @IsTagMap()` (decorators apply bottom
    // up), so that a failing map's messages read as before.
    IsTagMap(),
    IsObject(),
    IsOptional(),
  );
}
