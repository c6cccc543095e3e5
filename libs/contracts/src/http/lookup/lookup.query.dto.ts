import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIP, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsUnixTimeInDigits } from '../../validation/timestamp.decorator';
import { LOOKUP_EMAIL_PATTERN, LOOKUP_EMAIL_RULE, MAX_EMAIL_LENGTH } from './lookup.request.dto';

/** The indicator parameters of GET and DELETE /v2/lookup, by the names the answers use. */
export const LOOKUP_QUERY_INDICATORS = ['email', 'telephone', 'ipAddress', 'instrumentId', 'payerId', 'bankId'] as const;
export type LookupQueryIndicator = (typeof LOOKUP_QUERY_INDICATORS)[number];

/** An integer number of seconds (query parameters are text). */
export const UNIX_SECONDS_PATTERN = /^[0-9]{1,19}$/;

/**
 * Which indicators to read or delete. At least one is required (ADR-0009); that rule is
 * checked where the parameters are used, since it belongs to no single parameter.
 */
export class LookupIndicatorQueryDto {
  @ApiPropertyOptional({ example: 'fraud.ster@example.com', description: 'Matched trimmed and lower-cased.' })
  @IsOptional() @IsString() @MaxLength(MAX_EMAIL_LENGTH) @Matches(LOOKUP_EMAIL_PATTERN, LOOKUP_EMAIL_RULE)
  email?: string;

  @ApiPropertyOptional({
    example: '+447700900123',
    description:
      'E.164 (percent-encode the `+` as `%2B`; a `+` left unencoded arrives as a space and is read as `+`). A number not written internationally is matched by its digits.',
  })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(64)
  telephone?: string;

  @ApiPropertyOptional({ example: '203.0.113.7', description: 'IPv4 or IPv6, in any valid text form.' })
  @IsOptional() @IsString() @IsIP(undefined, { message: 'must be an IPv4 or IPv6 address' })
  ipAddress?: string;

  @ApiPropertyOptional({ example: 'card-fp-8c1e' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH)
  instrumentId?: string;

  @ApiPropertyOptional({ example: 'payer-77', description: 'An extension of the specification: payment methods POSTed by payerId.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH)
  payerId?: string;

  @ApiPropertyOptional({ example: 'GB29NWBK60161331926819', description: 'An extension of the specification: payment methods POSTed by bankId.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH)
  bankId?: string;
}

/** GET /v2/lookup. */
export class LookupReadQueryDto extends LookupIndicatorQueryDto {
  @ApiPropertyOptional({
    example: '1763000000',
    description: 'Unix time in seconds (ms and ns are recognised by magnitude): IP-address evidence seen before it is left out.',
  })
  @IsOptional() @IsString() @Matches(UNIX_SECONDS_PATTERN, { message: 'must be a Unix time in seconds (an integer)' }) @IsUnixTimeInDigits()
  ipFromTime?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: "`true`: other accounts' evidence counts only when their industry is this account's (none without an industry).",
  })
  @IsOptional() @IsIn(['true', 'false'], { message: 'must be true or false' })
  limitIndustry?: 'true' | 'false';
}

/** DELETE /v2/lookup. */
export class LookupDeleteQueryDto extends LookupIndicatorQueryDto {}
