import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Min } from 'class-validator';
import { registerTimestampField } from './timestamp-fields';

const DESCRIPTION =
  'Unix time in seconds, milliseconds or nanoseconds (normalised by magnitude; stored in ms).';

/** A required Unix timestamp, in any of the units decisions §1 accepts. */
export function IsTimestamp(description = DESCRIPTION): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'integer', example: 1763800000000, description }),
    IsInt(),
    Min(0),
    registerTimestampField,
  );
}

/** An optional Unix timestamp (times such as `registrationTime`). */
export function IsOptionalTimestamp(description = DESCRIPTION): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', example: 1763800000000, description }),
    IsOptional(),
    IsInt(),
    Min(0),
    registerTimestampField,
  );
}
