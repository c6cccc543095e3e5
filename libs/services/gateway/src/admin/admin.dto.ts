import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTIONS, type Action } from '@ringfence/contracts';
import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export class CreateAccountRequestDto {
  @ApiProperty({ example: 'acme-eats', minLength: 1, maxLength: 100 })
  @IsString() @MinLength(1) @MaxLength(100) @Matches(/^\S(.*\S)?$/, { message: 'must not start or end with spaces' })
  name!: string;

  @ApiPropertyOptional({ example: 'food-delivery', description: 'Used to limit shared lookup evidence to the same industry.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(100)
  industry?: string;
}

export class IssueKeyRequestDto {
  @ApiProperty({ enum: ['secret', 'publishable'] }) @IsIn(['secret', 'publishable']) kind!: 'secret' | 'publishable';
  @ApiProperty({ enum: ['test', 'live'] }) @IsIn(['test', 'live']) env!: 'test' | 'live';
}

export class AccountKeysDto {
  @ApiProperty({ example: 'sk_test_…' }) secretTest!: string;
  @ApiProperty({ example: 'sk_live_…' }) secretLive!: string;
  @ApiProperty({ example: 'pk_test_…' }) publishableTest!: string;
  @ApiProperty({ example: 'pk_live_…' }) publishableLive!: string;
}

export class CreatedAccountResponseDto {
  @ApiProperty({ example: 'acc_3kT9…' }) accountId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) industry!: string | null;
  @ApiProperty({ type: () => AccountKeysDto, description: 'The plaintext keys: shown this once, never again.' })
  keys!: AccountKeysDto;
}

export class IssuedKeyResponseDto {
  @ApiProperty({ example: 'key_8fQ2…' }) keyId!: string;
  @ApiProperty({ enum: ['secret', 'publishable'] }) kind!: string;
  @ApiProperty({ enum: ['test', 'live'] }) env!: string;
  @ApiProperty({ example: 'sk_live_…', description: 'The plaintext key: shown this once, never again.' }) key!: string;
}

/** The settings as stored: only those ever set; the others have their defaults. */
export class AccountSettingsDto {
  @ApiPropertyOptional({ example: true }) voucherAbuseEnabled?: boolean;
  @ApiPropertyOptional({ example: true }) potentialLabelsEnabled?: boolean;
  @ApiPropertyOptional({ enum: ACTIONS, example: 'REVIEW' }) defaultAction?: Action;
}

export class KeySummaryDto {
  @ApiProperty() keyId!: string;
  @ApiProperty({ enum: ['secret', 'publishable'] }) kind!: string;
  @ApiProperty({ enum: ['test', 'live'] }) env!: string;
  @ApiProperty({ example: 'sk_test_AbCd', description: 'The first characters only.' }) prefix!: string;
  @ApiProperty() createdAt!: string;
  @ApiProperty({ nullable: true, type: String }) revokedAt!: string | null;
}

export class AccountSummaryDto {
  @ApiProperty() accountId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) industry!: string | null;
  @ApiProperty() createdAt!: string;
  @ApiProperty({ type: () => AccountSettingsDto }) settings!: AccountSettingsDto;
  @ApiProperty({ type: () => [KeySummaryDto] }) keys!: KeySummaryDto[];
}

export class AccountListResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty() timestamp!: number;
  @ApiProperty({ type: () => [AccountSummaryDto] }) accounts!: AccountSummaryDto[];
}

/**
 * PATCH /admin/accounts/:accountId/settings: the settings sent are set, the others kept. A
 * setting never sent has its default (given in each description).
 */
export class UpdateAccountSettingsRequestDto {
  @ApiPropertyOptional({ example: true, description: 'Voucher-abuse recommendations (POST /v2/voucher/check); default true.' })
  @IsOptional() @IsBoolean() voucherAbuseEnabled?: boolean;

  @ApiPropertyOptional({ example: true, description: 'Allow the POTENTIALLY_FRAUDSTER and POTENTIALLY_GENUINE customer labels; default false.' })
  @IsOptional() @IsBoolean() potentialLabelsEnabled?: boolean;

  @ApiPropertyOptional({ enum: ACTIONS, example: 'REVIEW', description: 'The action a rate-limited checkpoint answers; default ALLOW.' })
  @IsOptional() @IsIn(ACTIONS, { message: `must be one of ${ACTIONS.join(', ')}` }) defaultAction?: Action;
}

export class AccountResponseDto {
  @ApiProperty({ example: 'acc_3kT9…' }) accountId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) industry!: string | null;
  @ApiProperty({ example: '2025-11-26T09:15:02.123Z' }) createdAt!: string;
  @ApiProperty({ type: () => AccountSettingsDto }) settings!: AccountSettingsDto;
}
