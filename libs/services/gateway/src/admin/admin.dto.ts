import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_ALLOWED_ORIGINS, MAX_CALLBACK_SECRET_LENGTH, MAX_CALLBACK_URL_LENGTH, MIN_CALLBACK_SECRET_LENGTH } from '@ringfence/accounts';
import { ACTIONS, type Action, CHECKPOINTS, IsIanaTimeZone, IsIntegerInRange, MAX_TIME_ZONE_LENGTH } from '@ringfence/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { HasOnlyKeys, IsAllowedOrigin, IsCurrencyLimitMap, IsCallbackUrl, IsNotBelowField } from './account-settings.validators';
import { IsVoucherTypeSettingsMap, VOUCHER_THRESHOLD_COMPARISONS as COMPARISONS } from './voucher-type-settings.validator';

const ALLOWED_ORIGINS_DESCRIPTION = (dataSet: string) =>
  `The browser origins whose pages may call the client endpoints (\`POST /v2/client/events\`, \`GET /v2/client/encryption-key\`) with the ${dataSet} data set's publishable key: exact origins as browsers send them in \`Origin\` (\`https://shop.example\`, \`http://127.0.0.1:8080\`; no path, no wildcard), at most ${MAX_ALLOWED_ORIGINS}. A request from another origin is refused 403 and nothing of it is kept; requests without an \`Origin\` (servers, mobile apps) are not affected. Replaces the whole list when sent; null or [] allows no browser origin (the default).`;

/** The most distinct other accounts a checkpoint's lookup REVIEW may be set to require. */
const LOOKUP_CONSORTIUM_MAX_ACCOUNTS = 1000;

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

/** What a voucher check of one voucher type uses when the request sends no depth or threshold (documentation only: `IsVoucherTypeSettingsMap` checks it). */
export class VoucherTypeSettingsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10, example: 4, description: 'Search depth; default 10.' }) depth?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, example: 5, description: 'Abuse threshold; default 3.' }) threshold?: number;
  @ApiPropertyOptional({ enum: COMPARISONS, description: 'Overrides `voucherThresholdComparison` for this type.' }) comparison?: 'gte' | 'gt';
}

/** One checkpoint's score thresholds: from `review` the model's answer is REVIEW, from `prevent` PREVENT. */
export class ScoreThresholdDto {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100, example: 60, description: 'Scores from this one (0–100) answer REVIEW.' })
  @IsIntegerInRange(0, 100) review!: number;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100, example: 85, description: 'Scores from this one (0–100, at least `review`) answer PREVENT.' })
  @IsIntegerInRange(0, 100) @IsNotBelowField('review') prevent!: number;
}

const THRESHOLD = (checkpoint: string) => ({ type: () => ScoreThresholdDto, description: `The ${checkpoint} checkpoint.` });

/** Score thresholds by checkpoint; a checkpoint left out keeps scoring's defaults. */
export class ScoreThresholdsDto {
  @ApiPropertyOptional(THRESHOLD('customer')) @IsOptional() @IsObject() @ValidateNested() @Type(() => ScoreThresholdDto) customer?: ScoreThresholdDto;
  @ApiPropertyOptional(THRESHOLD('registration')) @IsOptional() @IsObject() @ValidateNested() @Type(() => ScoreThresholdDto) registration?: ScoreThresholdDto;
  @ApiPropertyOptional(THRESHOLD('payout')) @IsOptional() @IsObject() @ValidateNested() @Type(() => ScoreThresholdDto) payout?: ScoreThresholdDto;
  @ApiPropertyOptional(THRESHOLD('refund')) @IsOptional() @IsObject() @ValidateNested() @Type(() => ScoreThresholdDto) refund?: ScoreThresholdDto;
  @ApiPropertyOptional(THRESHOLD('voucher-redemption')) @IsOptional() @IsObject() @ValidateNested() @Type(() => ScoreThresholdDto) voucherRedemption?: ScoreThresholdDto;
  @ApiPropertyOptional(THRESHOLD('PSP transaction')) @IsOptional() @IsObject() @ValidateNested() @Type(() => ScoreThresholdDto) transaction?: ScoreThresholdDto;
}

/** The 3-D Secure policy of PSP transactions before authorisation (docs/api.md, "Transaction optimisation"). */
export class TransactionOptimisationSettingsDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'number' }, example: { EUR: 30, GBP: 25 }, description: 'Per currency (ISO 4217), the amount in major units below which an ALLOW asks for the LOW_VALUE exemption; default `{"EUR": 30}`.' })
  @IsOptional() @IsCurrencyLimitMap() lowValueLimits?: Record<string, number>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'number' }, example: { EUR: 250 }, description: 'Per currency, the amount up to which an ALLOW with a low score asks for the TRANSACTION_RISK_ANALYSIS exemption; none by default (the limit your acquirer\'s fraud rate allows: 100, 250 or 500 EUR).' })
  @IsOptional() @IsCurrencyLimitMap() traLimits?: Record<string, number>;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, example: 20, description: 'TRANSACTION_RISK_ANALYSIS only for model scores up to this; default 20.' })
  @IsOptional() @IsIntegerInRange(0, 100) traMaxScore?: number;
}

/** The settings as stored: only those ever set; the others have their defaults. */
export class AccountSettingsDto {
  @ApiPropertyOptional({ example: true }) voucherAbuseEnabled?: boolean;
  @ApiPropertyOptional({ example: true }) potentialLabelsEnabled?: boolean;
  @ApiPropertyOptional({ enum: ACTIONS, example: 'REVIEW' }) defaultAction?: Action;
  @ApiPropertyOptional({ enum: COMPARISONS }) voucherThresholdComparison?: 'gte' | 'gt';
  @ApiPropertyOptional({ type: 'object', additionalProperties: { $ref: '#/components/schemas/VoucherTypeSettingsDto' } })
  voucherTypes?: Record<string, VoucherTypeSettingsDto>;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: LOOKUP_CONSORTIUM_MAX_ACCOUNTS, example: 3 }) lookupConsortiumMinAccounts?: number;
  @ApiPropertyOptional({ example: false }) lookupLimitIndustry?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://hooks.merchant.example/ringfence', description: 'The live data set\'s callback URL.' }) callbackUrl?: string | null;
  @ApiPropertyOptional({ example: true, description: 'Whether the live callback secret is set (shown once one was ever set). The secret itself is never shown.' }) callbackSecretSet?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://staging-hooks.merchant.example/ringfence', description: 'The sandbox data set\'s callback URL.' }) testCallbackUrl?: string | null;
  @ApiPropertyOptional({ example: true, description: 'Whether the sandbox callback secret is set (shown once one was ever set). The secret itself is never shown.' }) testCallbackSecretSet?: boolean;
  @ApiPropertyOptional({ type: () => ScoreThresholdsDto, nullable: true }) scoreThresholds?: ScoreThresholdsDto | null;
  @ApiPropertyOptional({ type: () => TransactionOptimisationSettingsDto, nullable: true }) transactionOptimisation?: TransactionOptimisationSettingsDto | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Europe/London', description: 'The IANA time zone the hours of the account\'s checkpoints are read in; null: UTC.' }) timeZone?: string | null;
  @ApiPropertyOptional({ type: [String], nullable: true, example: ['https://shop.example'], description: 'The browser origins the live data set\'s publishable key may be used from.' }) allowedOrigins?: string[] | null;
  @ApiPropertyOptional({ type: [String], nullable: true, example: ['http://127.0.0.1:8080'], description: 'The browser origins the sandbox data set\'s publishable key may be used from.' }) testAllowedOrigins?: string[] | null;
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
 * The settings an account may change itself (`SELF_SERVICE_SETTINGS`): their rules, shared by
 * `PATCH /v2/account/settings` and the operator's `PATCH /admin/accounts/:accountId/settings`,
 * which takes them too, so the two validate them alike.
 */
export class SelfServiceSettingsRequestDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_CALLBACK_URL_LENGTH,
    example: 'https://hooks.merchant.example/ringfence',
    description:
      'Review callbacks of the live data set: every label change made with a live key is POSTed here, signed with `callbackSecret` (docs/api.md, "Review callbacks"; the attempts at `GET /v2/callbacks/deliveries`). An https URL whose host resolves to public internet addresses only (checked now and at every attempt); plain http, and internal addresses, only to the networks the operator allows (`CALLBACK_ALLOWED_NETWORKS`). Needs a `callbackSecret`, sent with it or set before. A change applies to pending deliveries too (each attempt goes to the URL set then). null turns live callbacks off (pending deliveries are then given up).',
  })
  @IsOptional() @IsCallbackUrl() callbackUrl?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    writeOnly: true,
    minLength: MIN_CALLBACK_SECRET_LENGTH,
    maxLength: MAX_CALLBACK_SECRET_LENGTH,
    example: 'whsec-9f2c4e1a7b3d5f8e0c6a',
    description:
      'The HMAC-SHA256 key of the callbacks\' `Ringfence-Signature`, at least 16 characters (share it with the receiver; 32 random characters or more are advised). Never shown again: answers say `callbackSecretSet`. A new one signs the next attempt. null clears it (not while `callbackUrl` is set).',
  })
  @IsOptional() @IsString() @MinLength(MIN_CALLBACK_SECRET_LENGTH) @MaxLength(MAX_CALLBACK_SECRET_LENGTH) callbackSecret?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_CALLBACK_URL_LENGTH,
    example: 'https://staging-hooks.merchant.example/ringfence',
    description:
      'Review callbacks of the sandbox (`test`) data set, with the rules of `callbackUrl`: label changes made with a sandbox key go here, and only here (never to `callbackUrl`), signed with `testCallbackSecret`. Unset, sandbox labels send no callbacks.',
  })
  @IsOptional() @IsCallbackUrl() testCallbackUrl?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    writeOnly: true,
    minLength: MIN_CALLBACK_SECRET_LENGTH,
    maxLength: MAX_CALLBACK_SECRET_LENGTH,
    example: 'whsec-test-3b7d1e9a5c2f4e8a',
    description: 'The sandbox callbacks\' signing key, with the rules of `callbackSecret`; answers say `testCallbackSecretSet`. Use a different one from the live secret.',
  })
  @IsOptional() @IsString() @MinLength(MIN_CALLBACK_SECRET_LENGTH) @MaxLength(MAX_CALLBACK_SECRET_LENGTH) testCallbackSecret?: string | null;

  @ApiPropertyOptional({
    type: () => ScoreThresholdsDto,
    nullable: true,
    example: { customer: { review: 60, prevent: 85 }, payout: { review: 50, prevent: 70 } },
    description: `Per checkpoint (${CHECKPOINTS.join(', ')}), the scores from which the model's answer is REVIEW and PREVENT: integers 0 to 100, \`review\` ≤ \`prevent\`. A checkpoint left out keeps the defaults. Replaces the whole map when sent; null removes it.`,
  })
  @IsOptional() @IsObject() @HasOnlyKeys(CHECKPOINTS, 'a checkpoint') @ValidateNested() @Type(() => ScoreThresholdsDto)
  scoreThresholds?: ScoreThresholdsDto | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_TIME_ZONE_LENGTH,
    example: 'Europe/London',
    description:
      "The merchant's time zone, an IANA name (`Europe/London`, `America/New_York`, `UTC`; not an offset such as `+01:00`): the hour of day, the night and the weekend that the checkpoints' features read are this zone's, daylight-saving time included. Stored, and answered, as the server spells it (`europe/london` becomes `Europe/London`). null (or never set): UTC.",
  })
  @IsOptional() @IsIanaTimeZone() timeZone?: string | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_ALLOWED_ORIGINS,
    example: ['https://shop.example'],
    description: ALLOWED_ORIGINS_DESCRIPTION('live'),
  })
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_ALLOWED_ORIGINS) @IsAllowedOrigin({ each: true }) allowedOrigins?: string[] | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_ALLOWED_ORIGINS,
    example: ['http://127.0.0.1:8080'],
    description: ALLOWED_ORIGINS_DESCRIPTION('sandbox (`test`)'),
  })
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_ALLOWED_ORIGINS) @IsAllowedOrigin({ each: true }) testAllowedOrigins?: string[] | null;
}

/**
 * PATCH /admin/accounts/:accountId/settings: the settings sent are set, the others kept. A
 * setting never sent has its default (given in each description).
 */
export class UpdateAccountSettingsRequestDto extends SelfServiceSettingsRequestDto {
  @ApiPropertyOptional({ example: true, description: 'Voucher-abuse recommendations (POST /v2/voucher/check); default true.' })
  @IsOptional() @IsBoolean() voucherAbuseEnabled?: boolean;

  @ApiPropertyOptional({ example: true, description: 'Allow the POTENTIALLY_FRAUDSTER and POTENTIALLY_GENUINE customer labels; default false.' })
  @IsOptional() @IsBoolean() potentialLabelsEnabled?: boolean;

  @ApiPropertyOptional({ enum: ACTIONS, example: 'REVIEW', description: 'The action a rate-limited checkpoint answers; default ALLOW.' })
  @IsOptional() @IsIn(ACTIONS, { message: `must be one of ${ACTIONS.join(', ')}` }) defaultAction?: Action;

  @ApiPropertyOptional({
    enum: COMPARISONS,
    description: 'Voucher check with an explicit threshold: `gte` (ABUSE when uses ≥ threshold, the default) or `gt` (uses > threshold). The default threshold 3 always means "at least 3".',
  })
  @IsOptional() @IsIn(COMPARISONS, { message: 'must be one of gte, gt' }) voucherThresholdComparison?: 'gte' | 'gt';

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/VoucherTypeSettingsDto' },
    example: { REFERRAL: { depth: 4, threshold: 2, comparison: 'gt' } },
    description: 'Per voucher type (`voucherType` of the check), the depth and threshold used when a check sends 0 or none. Replaces the whole map when sent.',
  })
  @IsOptional() @IsVoucherTypeSettingsMap() voucherTypes?: Record<string, VoucherTypeSettingsDto>;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: LOOKUP_CONSORTIUM_MAX_ACCOUNTS,
    example: 3,
    description:
      "At checkpoints, how many distinct other accounts must have reported one of the request's known-fraud indicators (POST /v2/lookup) before that alone makes the answer REVIEW (`source: LOOKUP`); default 3. Other accounts' reports never make it PREVENT; the account's own do.",
  })
  @IsOptional() @IsInt() @Min(1) @Max(LOOKUP_CONSORTIUM_MAX_ACCOUNTS) lookupConsortiumMinAccounts?: number;

  @ApiPropertyOptional({
    example: true,
    description: "At checkpoints, count other accounts' lookup evidence only from accounts of this account's industry (as `limitIndustry=true` on GET /v2/lookup); default false.",
  })
  @IsOptional() @IsBoolean() lookupLimitIndustry?: boolean;

  @ApiPropertyOptional({
    type: () => TransactionOptimisationSettingsDto,
    nullable: true,
    example: { lowValueLimits: { EUR: 30 }, traLimits: { EUR: 250 }, traMaxScore: 20 },
    description: 'The 3-D Secure advice (`transactionOptimisation`) of PSP transactions at pspBeforeAuth: which exemption an ALLOW asks for, by currency. Replaced whole when sent; null restores the defaults.',
  })
  @IsOptional() @IsObject() @ValidateNested() @Type(() => TransactionOptimisationSettingsDto)
  transactionOptimisation?: TransactionOptimisationSettingsDto | null;
}

export class AccountResponseDto {
  @ApiProperty({ example: 'acc_3kT9…' }) accountId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) industry!: string | null;
  @ApiProperty({ example: '2025-11-26T09:15:02.123Z' }) createdAt!: string;
  @ApiProperty({ type: () => AccountSettingsDto }) settings!: AccountSettingsDto;
}
