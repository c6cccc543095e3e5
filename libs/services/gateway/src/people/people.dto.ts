import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USER_ROLES, type UserRole } from '@ringfence/accounts';
import { MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });
const ENVIRONMENTS = ['test', 'live'] as const;
/** RFC 5321's longest address. */
const MAX_EMAIL_LENGTH = 254;
const MAX_NAME_LENGTH = 200;
/** A password's characters may take up to 4 bytes each; the policy counts characters. */
const MAX_SIGN_IN_PASSWORD_LENGTH = PASSWORD_MAX_LENGTH * 4;

/** POST /v2/sessions: a person signs in to the console. */
export class SignInRequestDto {
  @ApiProperty({ example: 'ann@shop.example', maxLength: MAX_EMAIL_LENGTH })
  @IsString() @MinLength(3) @MaxLength(MAX_EMAIL_LENGTH) email!: string;

  @ApiProperty({ example: 'correct horse battery staple', format: 'password' })
  @IsString() @MinLength(1) @MaxLength(MAX_SIGN_IN_PASSWORD_LENGTH) password!: string;

  @ApiPropertyOptional({ enum: ENVIRONMENTS, default: 'test', description: 'The data set the session acts on; test by default.' })
  @IsOptional() @IsIn(ENVIRONMENTS, oneOf(ENVIRONMENTS)) environment?: 'test' | 'live';
}

/** POST /v2/users. */
export class CreateUserRequestDto {
  @ApiProperty({ example: 'ann@shop.example', maxLength: MAX_EMAIL_LENGTH, description: 'Signs in; stored lower-cased; unique over the server.' })
  @IsString() @MaxLength(MAX_EMAIL_LENGTH) @IsEmail({}, { message: 'must be an e-mail address' }) email!: string;

  @ApiProperty({ example: 'Ann Lee', maxLength: MAX_NAME_LENGTH })
  @IsString() @MinLength(1) @MaxLength(MAX_NAME_LENGTH) name!: string;

  @ApiProperty({ enum: USER_ROLES, description: 'viewer reads; analyst labels and works cases; rule_author also edits rules and models; admin also manages users and settings.' })
  @IsIn(USER_ROLES, oneOf(USER_ROLES)) role!: UserRole;

  @ApiProperty({ format: 'password', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.` })
  @IsString() @MaxLength(MAX_SIGN_IN_PASSWORD_LENGTH) password!: string;
}

/** PATCH /v2/users/:userId: each field given is changed. */
export class UpdateUserRequestDto {
  @ApiPropertyOptional({ example: 'Ann Lee', maxLength: MAX_NAME_LENGTH })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_NAME_LENGTH) name?: string;

  @ApiPropertyOptional({ enum: USER_ROLES, description: "A new role ends the user's sessions (they sign in again with it)." })
  @IsOptional() @IsIn(USER_ROLES, oneOf(USER_ROLES)) role?: UserRole;

  @ApiPropertyOptional({ format: 'password', description: `A new password (${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters); ends the user's sessions.` })
  @IsOptional() @IsString() @MaxLength(MAX_SIGN_IN_PASSWORD_LENGTH) password?: string;

  @ApiPropertyOptional({ description: "true: the user can no longer sign in, and their sessions end at once; false enables them again." })
  @IsOptional() @IsBoolean() disabled?: boolean;
}

export class UserPathDto {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) userId!: string;
}

export class SignedInUserDto {
  @ApiProperty({ example: 'usr_3kT9QmZ2xV8bN1cR' }) userId!: string;
  @ApiProperty({ example: 'ann@shop.example' }) email!: string;
  @ApiProperty({ example: 'Ann Lee' }) name!: string;
  @ApiProperty({ enum: USER_ROLES }) role!: UserRole;
}

export class UserDto extends SignedInUserDto {
  @ApiProperty({ example: false }) disabled!: boolean;
  @ApiProperty({ example: 1764148505000, description: 'Epoch milliseconds.' }) createdAt!: number;
  @ApiProperty({ example: 'key key_8fQ2…', description: "Who made the user: an admin's e-mail address, or `key <keyId>` for the secret key." }) createdBy!: string;
}

export class SessionDto {
  @ApiProperty({ example: 'rfs_…', description: 'Send it as `Authorization: token rfs_…`. Shown once; only its hash is stored.' }) token!: string;
  @ApiProperty({ example: 1764191705000, description: 'Epoch milliseconds: the session ends then, whatever the activity.' }) expiresAt!: number;
  @ApiProperty({ enum: ENVIRONMENTS }) environment!: 'test' | 'live';
  @ApiProperty({ type: () => SignedInUserDto }) user!: SignedInUserDto;
}

export class CurrentSessionDto {
  @ApiProperty({ type: () => SignedInUserDto, nullable: true, description: 'Null for an API key.' }) user!: SignedInUserDto | null;
  @ApiProperty({ enum: ENVIRONMENTS }) environment!: 'test' | 'live';
  @ApiProperty({ type: Number, nullable: true, description: "Epoch milliseconds; null for an API key (it lasts until revoked)." }) expiresAt!: number | null;
}

export class UserListDto {
  @ApiProperty({ type: () => [UserDto] }) users!: UserDto[];
}

abstract class Enveloped {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1764148505000 }) timestamp!: number;
}

export class SessionResponseDto extends Enveloped {
  @ApiProperty({ type: () => SessionDto }) data!: SessionDto;
}

export class CurrentSessionResponseDto extends Enveloped {
  @ApiProperty({ type: () => CurrentSessionDto }) data!: CurrentSessionDto;
}

export class UserResponseDto extends Enveloped {
  @ApiProperty({ type: () => UserDto }) data!: UserDto;
}

export class UserListResponseDto extends Enveloped {
  @ApiProperty({ type: () => UserListDto }) data!: UserListDto;
}
