import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { SHA256_HEX_PATTERN } from '../../validation/patterns';

/** Longer usernames are not usernames; the bound keeps a 5,000-entry import within the body limit. */
export const MAX_USERNAME_LENGTH = 256;
/** Entries per `POST /admin/breached-credentials` request. */
export const MAX_BREACHED_CREDENTIALS_PER_REQUEST = 5_000;

// The value is never part of the message (ADR-0006: a 400 never echoes the hash).
const PASSWORD_HASH_RULE = { message: 'must be 64 hexadecimal characters (the SHA-256 of the password)' };
const NOT_BLANK = /\S/;

/** POST /v2/lookup/credentials/check. */
export class CredentialsCheckRequestDto {
  @ApiProperty({ example: 'ada@example.com', description: 'Matched trimmed and lower-cased.', maxLength: MAX_USERNAME_LENGTH })
  @IsString() @MaxLength(MAX_USERNAME_LENGTH) @Matches(NOT_BLANK, { message: 'must not be blank' })
  username!: string;

  @ApiProperty({
    example: '03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4',
    pattern: SHA256_HEX_PATTERN.source,
    description:
      'SHA-256 of the password, hex (either case). Never the plaintext password. Used for this check only: never stored, logged, traced or published.',
  })
  @IsString(PASSWORD_HASH_RULE) @Matches(SHA256_HEX_PATTERN, PASSWORD_HASH_RULE)
  passwordHash!: string;
}

/** The answer has no `status`/`timestamp` on success (specification §7.3), and no field named like a hash (ADR-0009). */
export class CredentialsCheckResponseDto {
  @ApiProperty({ example: true, description: 'The username is in the breached-credentials database.' }) usernameBreached!: boolean;
  @ApiProperty({
    example: true,
    description: "The password is one of the username's breached passwords, or one of the most common passwords.",
  })
  passwordBreached!: boolean;
  @ApiProperty({ example: 2, description: 'Distinct breached passwords recorded for the username.' }) numBreachedPasswords!: number;
}

export class BreachedCredentialDto {
  @ApiProperty({ example: 'ada@example.com', description: 'Stored trimmed and lower-cased.', maxLength: MAX_USERNAME_LENGTH })
  @IsString() @MaxLength(MAX_USERNAME_LENGTH) @Matches(NOT_BLANK, { message: 'must not be blank' })
  username!: string;

  @ApiProperty({ example: '03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4', pattern: SHA256_HEX_PATTERN.source })
  @IsString(PASSWORD_HASH_RULE) @Matches(SHA256_HEX_PATTERN, PASSWORD_HASH_RULE)
  passwordHash!: string;
}

/** POST /admin/breached-credentials: one batch of a breach corpus (the CLI import sends these). */
export class BreachedCredentialsImportRequestDto {
  @ApiProperty({ type: () => [BreachedCredentialDto], minItems: 1, maxItems: MAX_BREACHED_CREDENTIALS_PER_REQUEST })
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_BREACHED_CREDENTIALS_PER_REQUEST)
  @ValidateNested({ each: true }) @Type(() => BreachedCredentialDto)
  entries!: BreachedCredentialDto[];
}

export class BreachedCredentialsImportResponseDto {
  @ApiProperty({ example: 5000, description: 'Entries in the request.' }) received!: number;
  @ApiProperty({ example: 4980, description: 'Pairs not stored before (duplicates are skipped, so an import can be re-run).' })
  inserted!: number;
}

/** POST /admin/breached-credentials/reload: the store's generation in use after the reload. */
export class BreachedCredentialsReloadResponseDto {
  @ApiProperty({ example: 'gen-000004', nullable: true, type: String, description: 'The generation checks now read; null before any import.' })
  generation!: string | null;
  @ApiProperty({ example: 100000000, description: 'Distinct username / password pairs in the store.' }) pairs!: number;
  @ApiProperty({ example: 61000000, description: 'Distinct usernames in the store.' }) usernames!: number;
}

/** The lookup service's internal route (distributed mode): the gateway asks for one username's stored prefixes. */
export class BreachedCredentialsPrefixesRequestDto {
  @IsString() @MinLength(1) @MaxLength(1024) username!: string;
}
