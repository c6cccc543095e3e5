import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { EVENT_TYPE_PATTERN, MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalNested } from '../../validation/nested.decorator';
import { IsTimestamp } from '../../validation/timestamp.decorator';

/** At most this many events in one `POST /v2/client/events` (decisions of ADR-0001's limits, docs/api.md "Client SDKs"). */
export const MAX_CLIENT_EVENTS_PER_CALL = 100;
/** The body limit of the client endpoints: 32 KiB, what a page-hide beacon can carry. */
export const CLIENT_EVENTS_BODY_LIMIT_BYTES = 32 * 1024;
/** The event types the SDKs send by name; any other name matching `EVENT_TYPE_PATTERN` is a custom event. */
export const CLIENT_EVENT_TYPES = ['pageview', 'click', 'paste', 'form-submit', 'resize', 'visibility', 'login', 'logout', 'checkout'] as const;
export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];
/** The longest custom event name. */
export const MAX_CLIENT_EVENT_TYPE_LENGTH = 64;
/** The longest URL, user agent or other free text the SDK reports. */
export const MAX_CLIENT_TEXT_LENGTH = 2048;

/** Free text of the browser (a URL, the user agent): a string of at most 2048 characters. */
function IsOptionalClientText(example: string, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ example, maxLength: MAX_CLIENT_TEXT_LENGTH, ...(description ? { description } : {}) }),
    IsOptional(),
    IsString(),
    MaxLength(MAX_CLIENT_TEXT_LENGTH),
  );
}

/** A short name (a time zone, a platform, an element's name): at most 300 characters. */
function IsOptionalShortText(example: string, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ example, maxLength: MAX_IDENTIFIER_LENGTH, ...(description ? { description } : {}) }),
    IsOptional(),
    IsString(),
    MaxLength(MAX_IDENTIFIER_LENGTH),
  );
}

/** A client identifier (`deviceId`, `sessionId`): 1 to 300 characters. */
function IsClientIdentifier(example: string, description: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ example, minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, description }),
    IsString(),
    MinLength(1),
    MaxLength(MAX_IDENTIFIER_LENGTH),
  );
}

/** The screen as the browser tells it, in CSS pixels. */
export class ClientScreenDto {
  @ApiPropertyOptional({ type: 'integer', example: 1920 }) @IsOptional() @IsInt() @Min(0) @Max(100_000) width?: number;
  @ApiPropertyOptional({ type: 'integer', example: 1080 }) @IsOptional() @IsInt() @Min(0) @Max(100_000) height?: number;
  @ApiPropertyOptional({ type: 'integer', example: 24 }) @IsOptional() @IsInt() @Min(0) @Max(1_000) colorDepth?: number;
  @ApiPropertyOptional({ type: Number, example: 2 }) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(100) pixelRatio?: number;
}

/** What the browser or app tells of itself (never a field value or a keystroke). */
export class ClientDeviceDto {
  @IsOptionalClientText('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36') userAgent?: string;
  @ApiPropertyOptional({ type: [String], example: ['en-GB', 'en'], maxItems: 20 })
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(64, { each: true })
  languages?: string[];
  @IsOptionalShortText('Europe/London', 'IANA time zone of the browser (`Intl.DateTimeFormat().resolvedOptions().timeZone`).') timeZone?: string;
  @IsOptionalNested(() => ClientScreenDto) screen?: ClientScreenDto;
  @IsOptionalShortText('Linux x86_64') platform?: string;
  @ApiPropertyOptional({ example: false, description: '`navigator.webdriver`: true in an automated (headless) browser.' })
  @IsOptional() @IsBoolean() webdriver?: boolean;
  @IsOptionalShortText('9f2c0d4a8e51b7c3', 'A hash of stable attributes, recognising a device whose storage was cleared.') fingerprint?: string;
}

/** The page an event happened on. */
export class ClientPageDto {
  @ApiProperty({ example: 'https://shop.example/checkout', maxLength: MAX_CLIENT_TEXT_LENGTH })
  @IsDefined() @IsString() @MaxLength(MAX_CLIENT_TEXT_LENGTH) url!: string;
  @IsOptionalClientText('https://shop.example/cart') referrer?: string;
}

/** The element an event happened on: its name and kind, never its value. */
export class ClientElementDto {
  @IsOptionalShortText('card-number', 'The element\'s `name` or `id`.') name?: string;
  @IsOptionalShortText('input', 'What it is: `input`, `button`, `form`, `a`, …') kind?: string;
}

/** One session event. */
export class ClientEventDto {
  @ApiProperty({
    example: 'pageview',
    maxLength: MAX_CLIENT_EVENT_TYPE_LENGTH,
    pattern: EVENT_TYPE_PATTERN.source,
    description: `One of ${CLIENT_EVENT_TYPES.join(', ')}, or a custom name of the eventType pattern.`,
  })
  @IsString() @MinLength(1) @MaxLength(MAX_CLIENT_EVENT_TYPE_LENGTH) @Matches(EVENT_TYPE_PATTERN, { message: `must match ${EVENT_TYPE_PATTERN.source}` })
  type!: string;
  @IsTimestamp('When it happened, on the client\'s clock.') time!: number;
  @IsOptionalNested(() => ClientPageDto) page?: ClientPageDto;
  @IsOptionalNested(() => ClientElementDto) element?: ClientElementDto;
}

/** `POST /v2/client/events` (publishable key): a batch of session events of one device. */
export class ClientEventsRequestDto {
  @IsTimestamp() timestamp!: number;
  @IsClientIdentifier('d-6f1b0c2e9a7d4b3f8e1a5c7d9b2f4e6a', 'The SDK\'s first-party device id (random, at least 128 bits); the merchant sends the same one as `device.deviceId`.') deviceId!: string;
  @IsClientIdentifier('s-3c5e7a9b1d2f4e6a', 'The SDK\'s session id.') sessionId!: string;
  @ApiPropertyOptional({ example: 'cus-61213', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, description: 'The shopper, once the page knows it.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId?: string;
  @IsOptionalNested(() => ClientDeviceDto) device?: ClientDeviceDto;
  @ApiProperty({ type: () => [ClientEventDto], maxItems: MAX_CLIENT_EVENTS_PER_CALL })
  @IsArray() @ArrayMaxSize(MAX_CLIENT_EVENTS_PER_CALL) @ValidateNested({ each: true }) @Type(() => ClientEventDto)
  events!: ClientEventDto[];
}
