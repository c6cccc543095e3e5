import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, registerDecorator } from 'class-validator';
import { isTimestampInRange } from '@ringfence/platform';
import { registerTimestampField } from './timestamp-fields';

/**
 * The accepted range of a time in each unit it may be sent in (ADR-0001, ADR-0016): [1970-01-01,
 * 2100-01-01) once normalised to milliseconds, without the times whose milliseconds would read as
 * seconds where the event is validated again (`isTimestampInRange`). A value between two units'
 * ranges (say 5000000000) reads as the smaller unit, past its range.
 */
export const UNIX_TIME_RANGES =
  'seconds below 4102444800, milliseconds from 1e11, microseconds from 1e14, nanoseconds from 1e17; ' +
  'not 1970-02-17 to 1973-03-03, whose milliseconds (below 1e11) read as seconds';

export const UNIX_TIME_RULE = `must be a Unix time from 1970-01-01 to before 2100-01-01 (${UNIX_TIME_RANGES})`;

const DESCRIPTION = `Unix time in seconds, milliseconds, microseconds or nanoseconds (normalised by magnitude; stored in ms), from 1970-01-01 to before 2100-01-01: ${UNIX_TIME_RANGES}.`;

/**
 * An integer Unix time within the accepted range (ADR-0016). Only integers are judged here:
 * `IsInt` beside it reports anything else, so a string gets one message, not two.
 */
export function IsUnixTime(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isUnixTime',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: UNIX_TIME_RULE },
      validator: { validate: (value: unknown) => !Number.isInteger(value) || isTimestampInRange(value as number) },
    });
  };
}

/**
 * A query parameter's Unix time, as decimal digits: within the accepted range when it is digits
 * (a pattern beside it reports anything else).
 */
export function IsUnixTimeInDigits(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isUnixTimeInDigits',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: UNIX_TIME_RULE },
      validator: { validate: (value: unknown) => typeof value !== 'string' || !/^[0-9]+$/.test(value) || isTimestampInRange(Number(value)) },
    });
  };
}

/** A required Unix timestamp, in any of the units ADR-0001 accepts. */
export function IsTimestamp(description = DESCRIPTION): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'integer', minimum: 0, example: 1763800000000, description: withRange(description) }),
    IsInt(),
    IsUnixTime(),
    registerTimestampField,
  );
}

/** An optional Unix timestamp (times such as `registrationTime`). */
export function IsOptionalTimestamp(description = DESCRIPTION): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 0, example: 1763800000000, description: withRange(description) }),
    IsOptional(),
    IsInt(),
    IsUnixTime(),
    registerTimestampField,
  );
}

/** A field's own description, followed by the range every time shares; the units' ranges are spelled out once, on `timestamp`. */
function withRange(description: string): string {
  return description === DESCRIPTION ? description : `${description} From 1970-01-01 to before 2100-01-01, in any unit.`;
}
