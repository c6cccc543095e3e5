import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Matches, MinLength } from 'class-validator';
import { SHA256_HEX_PATTERN } from '../../validation/patterns';
import { AppDto } from '../shared/app.dto';
import { IsOptionalNested } from '../../validation/nested.decorator';

// The message never repeats the value: a 400 must not echo a password hash (ADR-0006).
const PASSWORD_HASH_RULE = { message: 'must be 64 hexadecimal characters (the SHA-256 of the password)' };

/** How a password registration went, without the password hash: what the ingest topic carries. */
export class PasswordOutcomeDto {
  @ApiPropertyOptional({ example: false, description: 'Whether the password was accepted.' })
  @IsOptional() @IsBoolean() success?: boolean;
  @ApiPropertyOptional({ example: 'PASSWORD_TOO_SIMPLE', description: 'Why the password was refused; value seen: `PASSWORD_TOO_SIMPLE`.' })
  @IsOptional() @IsString() failureReason?: string;
}

/** `registrationMechanism.password` (specification §2.2): the outcome and the password's SHA-256. Never the password. */
export class PasswordMechanismDto extends PasswordOutcomeDto {
  @ApiPropertyOptional({
    example: '03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4',
    pattern: SHA256_HEX_PATTERN.source,
    description:
      'SHA-256 of the password, hex encoded (never the password). Checked against the breached-credentials store in the gateway, then discarded: never stored, logged or published.',
  })
  @IsOptional() @IsString(PASSWORD_HASH_RULE) @Matches(SHA256_HEX_PATTERN, PASSWORD_HASH_RULE) passwordHashed?: string;
}

/** `registrationMechanism`: the means of registering; the specification shows only `password`. */
export class RegistrationMechanismDto {
  @IsOptionalNested(() => PasswordMechanismDto, 'Registration with a password.') password?: PasswordMechanismDto;
}

/** `registrationMechanism` as the ingest topic carries it: the password's outcome, never its hash. */
export class RegistrationMechanismOutcomeDto {
  @IsOptionalNested(() => PasswordOutcomeDto, 'Registration with a password.') password?: PasswordOutcomeDto;
}

/** `registration` of POST /v2/registration (specification §2.2): the registration attempt itself. */
export class RegistrationDto {
  @IsOptionalNested(() => AppDto, 'The merchant application the user registered through.') app?: AppDto;
  @ApiPropertyOptional({
    example: 'ada@example.com',
    minLength: 1,
    description: 'The username chosen; checked against the breached-credentials store for `credentialStatus.usernameBreached`.',
  })
  @IsOptional() @IsString() @MinLength(1) username?: string;
  @IsOptionalNested(() => RegistrationMechanismDto, 'How the user registered.') registrationMechanism?: RegistrationMechanismDto;
  @ApiPropertyOptional({ example: false, description: 'The user registered as a guest, without an account.' })
  @IsOptional() @IsBoolean() guestAccount?: boolean;
  @ApiPropertyOptional({ example: true }) @IsOptional() @IsBoolean() marketingEmailsEnabled?: boolean;
  @ApiPropertyOptional({ example: true, description: 'Whether the registration succeeded.' }) @IsOptional() @IsBoolean() success?: boolean;
}

/**
 * The registration as published on `ringfence.ingest.registration.submitted.v1`: the request's
 * registration with the password hash removed (ADR-0006), so the schema says what the topic
 * can hold.
 */
export class RegistrationOutcomeDto extends OmitType(RegistrationDto, ['registrationMechanism'] as const) {
  @IsOptionalNested(() => RegistrationMechanismOutcomeDto, 'How the user registered.') registrationMechanism?: RegistrationMechanismOutcomeDto;
}
