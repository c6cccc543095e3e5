import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { CURRENCY_PATTERN, EVENT_TYPE_PATTERN, MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';

// Field decorators that recur on almost every request of the specification. They keep the
// documented example, the pattern and the 400 message identical everywhere.

/** `eventType` (specification §2.1): optional, minimum length 1, EVENT_TYPE_PATTERN. */
export function IsOptionalEventType(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      example: 'account-update',
      minLength: 1,
      pattern: EVENT_TYPE_PATTERN.source,
      description: 'Which event in the merchant system triggered the call; free-form.',
    }),
    IsOptional(),
    IsString(),
    MinLength(1),
    Matches(EVENT_TYPE_PATTERN, { message: `must match ${EVENT_TYPE_PATTERN.source}` }),
  );
}

/** An optional ISO 4217 currency (specification §2.1: three letters). */
export function IsOptionalCurrency(example = 'GBP'): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ example, pattern: CURRENCY_PATTERN.source, description: 'ISO 4217 currency code, three letters.' }),
    IsOptional(),
    IsString(),
    Matches(CURRENCY_PATTERN, { message: `must match ${CURRENCY_PATTERN.source}` }),
  );
}

/** An optional identifier of another entity (customerId, deviceId, …): 1 to 300 characters (specification §8). */
export function IsOptionalIdentifier(example: string, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ example, minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, ...(description ? { description } : {}) }),
    IsOptional(),
    IsString(),
    MinLength(1),
    MaxLength(MAX_IDENTIFIER_LENGTH),
  );
}
