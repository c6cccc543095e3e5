import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, getSchemaPath, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIP,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import { CURRENCY_PATTERN, MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalAmount } from '../../validation/scalar-fields.decorator';
import { IsUnixTime, UNIX_TIME_RANGES } from '../../validation/timestamp.decorator';

/** At most this many chargebacks and this many manual reviews per POST (each applies to every indicator sent). */
export const MAX_LOOKUP_EVIDENCE_ITEMS = 100;
/** RFC 5321: an address is at most 254 characters; a little room for surrounding spaces. */
export const MAX_EMAIL_LENGTH = 320;

/**
 * A lookup e-mail is any string with something in it besides white space: the specification
 * fixes no format for addresses (known-fraud ones are often odd), and they are matched trimmed
 * and lower-cased. A blank one would name no indicator.
 */
export const LOOKUP_EMAIL_PATTERN = /\S/;
export const LOOKUP_EMAIL_RULE = { message: 'must not be blank' };

/** Shape only; whether the country exists is checked where the number is normalised. */
export const PHONE_COUNTRY_CODE_PATTERN = /^(\+?[0-9]{1,3}|[A-Za-z]{2,3})$/;

const TIME_IN_SECONDS =
  'Unix time in seconds (the lookup POST is documented in seconds); milliseconds and nanoseconds are recognised by magnitude as everywhere.';
const TIME_RANGE = `From 1970-01-01 to before 2100-01-01 (${UNIX_TIME_RANGES}).`;

function OptionalLookupTime(description: string): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ type: 'integer', minimum: 0, example: 1763800000, description: `${description} ${TIME_RANGE}` }), IsOptional(), IsInt(), IsUnixTime());
}

export class LookupEmailDto {
  @ApiProperty({ example: 'Fraud.Ster@example.com', description: 'Matched trimmed and lower-cased.', maxLength: MAX_EMAIL_LENGTH })
  @IsString() @MaxLength(MAX_EMAIL_LENGTH) @Matches(LOOKUP_EMAIL_PATTERN, LOOKUP_EMAIL_RULE)
  address!: string;

  @ApiPropertyOptional({ example: true }) @IsOptional() @IsBoolean() verified?: boolean;

  @OptionalLookupTime('When the address was seen (Unix seconds); the POST `timestamp` when absent.') timestamp?: number;
}

export class LookupTelephoneDto {
  @ApiProperty({ example: '07700 900123', description: 'Stored as E.164 when it can be read (with `countryCode`, or written internationally), else as its digits.' })
  @IsString() @MinLength(1) @MaxLength(64)
  number!: string;

  @ApiPropertyOptional({
    example: 'GBR',
    description: 'The country of the number: ISO 3166 alpha-3 (as other payloads carry countries) or alpha-2, or a calling code in digits (`44`).',
  })
  @IsOptional() @IsString()
  @Matches(PHONE_COUNTRY_CODE_PATTERN, { message: 'must be an ISO 3166 alpha-3 or alpha-2 country code, or a calling code in digits' })
  countryCode?: string;

  @ApiPropertyOptional({ example: false }) @IsOptional() @IsBoolean() verified?: boolean;

  @OptionalLookupTime('When the number was seen (Unix seconds); the POST `timestamp` when absent.') timestamp?: number;
}

export class LookupIpAddressDto {
  @ApiProperty({ example: '203.0.113.7', description: 'IPv4 or IPv6; stored in canonical form (IPv6 per RFC 5952, IPv4-mapped IPv6 as IPv4).' })
  @IsString() @IsIP(undefined, { message: 'must be an IPv4 or IPv6 address' })
  address!: string;

  @OptionalLookupTime('When the address was seen (Unix seconds); the POST `timestamp` when absent. `ipFromTime` filters on it.') timestamp?: number;
}

export const PAYMENT_METHOD_IDENTIFIERS = ['instrumentId', 'payerId', 'bankId'] as const;
export type PaymentMethodIdentifier = (typeof PAYMENT_METHOD_IDENTIFIERS)[number];

/** A payment method as a lookup indicator: exactly one of its identifiers. */
export class LookupPaymentMethodDto {
  @ApiPropertyOptional({ example: 'card-fp-8c1e', description: 'A card fingerprint or token; exactly one of instrumentId, payerId, bankId.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) instrumentId?: string;

  @ApiPropertyOptional({ example: 'payer-77', description: 'A wallet payer id; exactly one of instrumentId, payerId, bankId.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) payerId?: string;

  @ApiPropertyOptional({ example: 'GB29NWBK60161331926819', description: 'A bank account; exactly one of instrumentId, payerId, bankId.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) bankId?: string;

  @OptionalLookupTime('When the payment method was seen (Unix seconds); the POST `timestamp` when absent.') timestamp?: number;
}

/** The payment-method object carries exactly one identifier (specification §4.15). */
export function HasExactlyOnePaymentIdentifier(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'hasExactlyOnePaymentIdentifier',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: `must carry exactly one of ${PAYMENT_METHOD_IDENTIFIERS.join(', ')}`, ...options },
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'object' || value === null) return true; // the type rules report it
          const sent = PAYMENT_METHOD_IDENTIFIERS.filter((key) => (value as Record<string, unknown>)[key] !== undefined);
          return sent.length === 1;
        },
      },
    });
  };
}

export class LookupChargebackDto {
  @ApiPropertyOptional({ example: 'cb-5531', description: 'Identifies the chargeback: the same one sent again counts once.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) chargebackId?: string;
  @ApiPropertyOptional({ example: 'acquirer-one' }) @IsOptional() @IsString() @MaxLength(MAX_IDENTIFIER_LENGTH) gateway?: string;
  @ApiPropertyOptional({ example: 'ref-12ab' }) @IsOptional() @IsString() @MaxLength(MAX_IDENTIFIER_LENGTH) gatewayReference?: string;
  @ApiPropertyOptional({ example: 'cus-61213' }) @IsOptional() @IsString() @MaxLength(MAX_IDENTIFIER_LENGTH) customerId?: string;
  @ApiPropertyOptional({ example: 'FRAUD' }) @IsOptional() @IsString() @MaxLength(MAX_IDENTIFIER_LENGTH) reason?: string;
  @ApiPropertyOptional({ example: 'LOST' }) @IsOptional() @IsString() @MaxLength(MAX_IDENTIFIER_LENGTH) status?: string;
  @IsOptionalAmount(1999, 'Minor units.') amount?: number;
  @ApiPropertyOptional({ example: 'GBP' })
  @IsOptional() @IsString() @Matches(CURRENCY_PATTERN, { message: `must match ${CURRENCY_PATTERN.source}` }) currency?: string;
  @OptionalLookupTime('When the dispute was raised (Unix time).') disputeTime?: number;
}

export class LookupReviewerDto {
  @ApiPropertyOptional({ example: 'Grace Hopper' }) name?: string;
  @ApiPropertyOptional({ example: 'grace@merchant.example' }) email?: string;
}

/** `reviewer`: a name, or `{name, email}` as the label endpoints take it. */
export function IsReviewer(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isReviewer',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: 'must be a string or an object {name, email} of strings', ...options },
      validator: {
        validate(value: unknown): boolean {
          if (typeof value === 'string') return value.length <= MAX_IDENTIFIER_LENGTH;
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          const { name, email } = value as Record<string, unknown>;
          return [name, email].every((field) => field === undefined || (typeof field === 'string' && field.length <= MAX_IDENTIFIER_LENGTH));
        },
      },
    });
  };
}

// The reviewer's object form is referenced by name below, so it must be in every document that uses this class.
@ApiExtraModels(LookupReviewerDto)
export class LookupManualReviewDto {
  @ApiPropertyOptional({ example: 'rev-204', description: 'Identifies the review: the same one sent again counts once.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) reviewId?: string;
  @ApiPropertyOptional({ example: 'Stolen card used on three accounts.', description: 'Never shown to other accounts.' })
  @IsOptional() @IsString() @MaxLength(10_000) comment?: string;
  @ApiPropertyOptional({ example: 'cus-61213' }) @IsOptional() @IsString() @MaxLength(MAX_IDENTIFIER_LENGTH) customerId?: string;
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { $ref: getSchemaPath(LookupReviewerDto) }],
    example: { name: 'Grace Hopper', email: 'grace@merchant.example' },
    description: 'Never shown to other accounts.',
  })
  @IsOptional() @IsReviewer() reviewer?: string | LookupReviewerDto;
  @OptionalLookupTime('When the review was made (Unix time).') timestamp?: number;
}

/**
 * POST /v2/lookup: known-fraud indicators with their evidence. Every chargeback and manual
 * review of the body is evidence for every indicator of the same body; an indicator sent
 * without evidence is recorded as a bare report and is known all the same.
 */
export class LookupAddRequestDto {
  @ApiProperty({ type: 'integer', minimum: 0, example: 1763800000, description: `${TIME_IN_SECONDS} ${TIME_RANGE}` })
  @IsInt() @IsUnixTime()
  timestamp!: number;

  @ApiPropertyOptional({ type: () => LookupEmailDto })
  @IsOptional() @ValidateNested() @Type(() => LookupEmailDto) email?: LookupEmailDto;

  @ApiPropertyOptional({ type: () => LookupTelephoneDto })
  @IsOptional() @ValidateNested() @Type(() => LookupTelephoneDto) telephone?: LookupTelephoneDto;

  @ApiPropertyOptional({ type: () => LookupIpAddressDto })
  @IsOptional() @ValidateNested() @Type(() => LookupIpAddressDto) ipAddress?: LookupIpAddressDto;

  @ApiPropertyOptional({ type: () => LookupPaymentMethodDto, description: 'Exactly one of instrumentId, payerId, bankId.' })
  @IsOptional() @HasExactlyOnePaymentIdentifier() @ValidateNested() @Type(() => LookupPaymentMethodDto) paymentMethod?: LookupPaymentMethodDto;

  @ApiPropertyOptional({
    type: () => [LookupChargebackDto],
    maxItems: MAX_LOOKUP_EVIDENCE_ITEMS,
    description: 'Evidence for every indicator of this request.',
  })
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LOOKUP_EVIDENCE_ITEMS) @ValidateNested({ each: true }) @Type(() => LookupChargebackDto)
  chargebacks?: LookupChargebackDto[];

  @ApiPropertyOptional({
    type: () => [LookupManualReviewDto],
    maxItems: MAX_LOOKUP_EVIDENCE_ITEMS,
    description: 'Evidence for every indicator of this request.',
  })
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LOOKUP_EVIDENCE_ITEMS) @ValidateNested({ each: true }) @Type(() => LookupManualReviewDto)
  manualReviews?: LookupManualReviewDto[];
}

/** The indicator objects of the POST body, in the order their names appear in answers. */
export const LOOKUP_BODY_INDICATORS = ['email', 'telephone', 'ipAddress', 'paymentMethod'] as const;
