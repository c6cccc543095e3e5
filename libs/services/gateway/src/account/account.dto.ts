import { ApiProperty, OmitType } from '@nestjs/swagger';
import { OPERATOR_ONLY_SETTINGS, OPERATOR_ONLY_SETTING_RULE } from '@ringfence/accounts';
import { registerDecorator } from 'class-validator';
import { AccountSettingsDto, ScoreThresholdsDto, SelfServiceSettingsRequestDto } from '../admin/admin.dto';

/**
 * `PATCH /v2/account/settings`: the self-service settings, with the very rules of the admin
 * route (the class it extends). Fields nobody knows are ignored, as everywhere (ADR-0001),
 * but an operator-only setting is a field the caller meant to change: it is refused, named, not
 * dropped silently (its rule is registered below, one per `OPERATOR_ONLY_SETTINGS` entry).
 */
export class UpdateOwnAccountSettingsRequestDto extends SelfServiceSettingsRequestDto {}

for (const setting of OPERATOR_ONLY_SETTINGS) {
  registerDecorator({
    name: 'isOperatorOnlySetting',
    target: UpdateOwnAccountSettingsRequestDto,
    propertyName: setting,
    options: { message: OPERATOR_ONLY_SETTING_RULE },
    // Absent passes (the formatter would call a failing absent field "required"); anything sent, null included, fails.
    validator: { validate: (value: unknown) => value === undefined },
  });
}

/** The settings as `GET /v2/account` shows them: the stored ones (never a callback secret), with these always present. */
const ALWAYS_SHOWN_SETTINGS = ['scoreThresholds', 'callbackUrl', 'callbackSecretSet', 'testCallbackUrl', 'testCallbackSecretSet', 'potentialLabelsEnabled', 'timeZone', 'allowedOrigins', 'testAllowedOrigins'] as const;

export class OwnAccountSettingsDto extends OmitType(AccountSettingsDto, ALWAYS_SHOWN_SETTINGS) {
  @ApiProperty({ type: () => ScoreThresholdsDto, nullable: true, description: "Null: every checkpoint uses scoring's default thresholds." })
  scoreThresholds!: ScoreThresholdsDto | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://hooks.merchant.example/ringfence', description: 'Where live labels are sent. Null: no review callbacks for the live data set.' })
  callbackUrl!: string | null;

  @ApiProperty({ example: true, description: 'Whether the live callback secret is set. The secret itself is never shown.' })
  callbackSecretSet!: boolean;

  @ApiProperty({ type: String, nullable: true, example: 'https://staging-hooks.merchant.example/ringfence', description: 'Where sandbox labels are sent. Null: no review callbacks for the sandbox data set.' })
  testCallbackUrl!: string | null;

  @ApiProperty({ example: true, description: 'Whether the sandbox callback secret is set. The secret itself is never shown.' })
  testCallbackSecretSet!: boolean;

  @ApiProperty({ example: false, description: 'Whether the POTENTIALLY_ reviews are allowed (the operator switches them on).' })
  potentialLabelsEnabled!: boolean;

  @ApiProperty({ type: String, nullable: true, example: 'Europe/London', description: "The IANA time zone the hours of the account's checkpoints (hour of day, night, weekend) are read in. Null: UTC." })
  timeZone!: string | null;

  @ApiProperty({ type: [String], example: ['https://shop.example'], description: "The browser origins the live data set's publishable key may be used from (the client endpoints); [] allows none." })
  allowedOrigins!: string[];

  @ApiProperty({ type: [String], example: ['http://127.0.0.1:8080'], description: "The same for the sandbox data set's publishable key." })
  testAllowedOrigins!: string[];
}

export class OwnAccountKeyDto {
  @ApiProperty({ example: 'key_8fQ2…' }) keyId!: string;
  @ApiProperty({ example: 'sk_live_AbCd', description: 'The first characters of the key, to recognise it; never the key or its hash.' }) prefix!: string;
  @ApiProperty({ enum: ['secret', 'publishable'] }) kind!: 'secret' | 'publishable';
  @ApiProperty({ enum: ['test', 'live'], description: 'The data set the key acts on.' }) environment!: 'test' | 'live';
  @ApiProperty({ example: '2025-11-26T09:15:02.123Z' }) createdAt!: string;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'When it was revoked; null while it works.' }) revokedAt!: string | null;
  @ApiProperty({ description: 'Whether this is the key of the request.' }) current!: boolean;
}

export class OwnAccountDto {
  @ApiProperty({ example: 'acc_3kT9QmZ2xV8bN1cR' }) accountId!: string;
  @ApiProperty({ example: 'acme-eats' }) name!: string;
  @ApiProperty({ type: String, nullable: true, example: 'food-delivery' }) industry!: string | null;
  @ApiProperty({ example: '2025-11-26T09:15:02.123Z' }) createdAt!: string;
  @ApiProperty({ enum: ['test', 'live'], description: "The data set of the request's key. The settings and keys are the account's, for both data sets." })
  environment!: 'test' | 'live';
  @ApiProperty({ type: () => OwnAccountSettingsDto }) settings!: OwnAccountSettingsDto;
  @ApiProperty({ type: () => [OwnAccountKeyDto], description: "Every key of the account, both data sets and revoked ones included, oldest first." }) keys!: OwnAccountKeyDto[];
}

export class OwnAccountResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1764148505000 }) timestamp!: number;
  @ApiProperty({ type: () => OwnAccountDto }) data!: OwnAccountDto;
}
