import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsArray, IsDefined, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { ReadFromJson } from './json-readings';

// Nested objects of the payment-side payloads. `IsObject` is there because nested validation
// alone iterates an array it is given and so lets `[]` pass where an object is required.

type Thunk = () => abstract new (...args: never[]) => object;

// @nestjs/swagger takes a `type` function for a lazy reference only when the function's own name
// is "type", which an arrow gets from being written as the `type:` property: hence `() => type()`.

/** A required nested object validated as `type`. */
export function IsRequiredNested(type: Thunk, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: () => type(), ...(description ? { description } : {}) }),
    IsDefined(),
    IsObject(),
    ValidateNested(),
    Type(type),
  );
}

/** An optional nested object validated as `type`. */
export function IsOptionalNested(type: Thunk, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: () => type(), ...(description ? { description } : {}) }),
    IsOptional(),
    IsObject(),
    ValidateNested(),
    Type(type),
  );
}

/** An optional array whose items are objects validated as `type`. */
export function IsOptionalNestedArray(type: Thunk, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: () => [type()], ...(description ? { description } : {}) }),
    IsOptional(),
    IsArray(),
    ValidateNested({ each: true }),
    Type(type),
    // An item that is itself an array would be iterated, not reported; null is reported as
    // "must be an object", like any other item that is not an object.
    Transform(({ value }: { value: unknown }) => arrayItemsAsNull(value), { toClassOnly: true }),
    ReadFromJson({ convert: arrayItemsAsNull }),
  );
}

/** An array whose items that are arrays are null; the array itself when it has none (anything else as it is). */
export function arrayItemsAsNull(value: unknown): unknown {
  return Array.isArray(value) && value.some((item) => Array.isArray(item)) ? value.map((item: unknown) => (Array.isArray(item) ? null : item)) : value;
}
