import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IsWithinSafeIntegers, MAX_ACCEPTED_INTEGER } from '../http/shared/integer-range';
import { MAX_IDENTIFIER_LENGTH, MCC_PATTERN } from './patterns';

// The scalar fields of the payment-side objects (orders, refunds, payouts, PSP
// transactions): one decorator each keeps the documented type, the example and the strictness
// (no implicit conversion, ADR-0009) identical everywhere.

function documented(example: unknown, description: string | undefined, extra: Record<string, unknown> = {}) {
  return ApiPropertyOptional({ example, ...extra, ...(description ? { description } : {}) });
}

/** An optional string. */
export function IsOptionalText(example: string, description?: string): PropertyDecorator {
  return applyDecorators(documented(example, description), IsOptional(), IsString());
}

/**
 * An optional string that a store keys on: an e-mail, a telephone number, an IP address, an
 * instrumentId, a merchant id, a vehicle's or a document's number. At most 300 characters, as
 * identifiers are (ADR-0009): a key column holds a few kilobytes at most, and a longer value
 * would be accepted here and refused by the store (ADR-0016).
 */
export function IsOptionalKeyText(example: string, description?: string): PropertyDecorator {
  return applyDecorators(documented(example, description, { maxLength: MAX_IDENTIFIER_LENGTH }), IsOptional(), IsString(), MaxLength(MAX_IDENTIFIER_LENGTH));
}

/** An optional integer (counts such as `quantity`), within ±(2^53 − 1) (ADR-0016). */
export function IsOptionalInteger(example: number, description?: string): PropertyDecorator {
  return applyDecorators(
    documented(example, description, { type: 'integer', minimum: -MAX_ACCEPTED_INTEGER, maximum: MAX_ACCEPTED_INTEGER }),
    IsOptional(),
    IsInt(),
    IsWithinSafeIntegers(),
  );
}

/** An optional amount: an integer in the currency's minor units (specification §2.1). */
export function IsOptionalAmount(example: number, description = 'Integer, in minor units of the currency (1999 = 19.99).'): PropertyDecorator {
  return IsOptionalInteger(example, description);
}

/** An optional boolean; `"true"` or `1` is not one. */
export function IsOptionalFlag(example: boolean, description?: string): PropertyDecorator {
  return applyDecorators(documented(example, description), IsOptional(), IsBoolean());
}

/** An optional merchant category code: exactly four digits, as a string (specification §8). */
export function IsOptionalMcc(): PropertyDecorator {
  return applyDecorators(
    documented('5812', 'Merchant category code, exactly four digits.', { pattern: MCC_PATTERN.source }),
    IsOptional(),
    IsString(),
    Matches(MCC_PATTERN, { message: `must match ${MCC_PATTERN.source}` }),
  );
}

/** A required identifier (`transactionId`, `payoutId`, …): a string of 1 to 300 characters (ADR-0009). */
export function IsRequiredIdentifier(example: string, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ example, minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, ...(description ? { description } : {}) }),
    IsString(),
    MinLength(1),
    MaxLength(MAX_IDENTIFIER_LENGTH),
  );
}
