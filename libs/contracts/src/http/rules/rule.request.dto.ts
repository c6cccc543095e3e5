import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import {
  CHALLENGE_PREFERENCES,
  type ChallengePreference,
  MAX_RULE_DESCRIPTION_LENGTH,
  MAX_RULE_ID,
  MAX_RULE_EXPRESSION_LENGTH,
  MAX_RULE_NAME_LENGTH,
  RULE_ACTIONS,
  RULE_STATES_STORED,
  SCA_EXEMPTIONS,
  type ScaExemption,
  type RuleAction,
  type StoredRuleState,
} from './rule-vocabulary';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../../checkpoints/checkpoint-names';

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });

const EXPRESSION_DESCRIPTION =
  'CEL: a boolean over `payload`, `features`, `network`, `labels`, `lookup` and `score` (docs/rules.md). Type-checked on save: a syntax error, an unknown name or a non-boolean result is a 400 naming `expression` with the position.';

/** A pspBeforeAuth rule's 3-D Secure advice, given when it triggers (the answer's `transactionOptimisation`). */
export class RuleTransactionOptimisationDto {
  @ApiPropertyOptional({ enum: SCA_EXEMPTIONS, example: 'TRANSACTION_RISK_ANALYSIS', description: 'The exemption to ask for.' })
  @IsOptional() @IsIn(SCA_EXEMPTIONS, oneOf(SCA_EXEMPTIONS)) exemption?: ScaExemption;

  @ApiPropertyOptional({ enum: CHALLENGE_PREFERENCES, example: 'NO_CHALLENGE_REQUESTED', description: 'The challenge preference to send; NO_CHALLENGE_REQUESTED with an exemption, NO_PREFERENCE without, when omitted.' })
  @IsOptional() @IsIn(CHALLENGE_PREFERENCES, oneOf(CHALLENGE_PREFERENCES)) threeDSChallengePreference?: ChallengePreference;
}

/** POST /v2/rules and PUT /v2/rules/:ruleId (ADR-0011). */
export class RuleRequestDto {
  @ApiProperty({ example: 'Large first payout', maxLength: MAX_RULE_NAME_LENGTH })
  @IsString() @MinLength(1) @MaxLength(MAX_RULE_NAME_LENGTH) name!: string;

  @ApiPropertyOptional({ example: 'A payout above 500 to a supplier first seen today.', maxLength: MAX_RULE_DESCRIPTION_LENGTH, description: 'Shown in `rules.triggered[].description`; empty when omitted.' })
  @IsOptional() @IsString() @MaxLength(MAX_RULE_DESCRIPTION_LENGTH) description?: string;

  @ApiProperty({ enum: RULE_CHECKPOINTS, example: 'payout' })
  @IsIn(RULE_CHECKPOINTS, oneOf(RULE_CHECKPOINTS)) checkpoint!: RuleCheckpoint;

  @ApiProperty({ example: 'payload.payout.amount > 50000.0 && !has(features.supplierAccountAgeHours)', maxLength: MAX_RULE_EXPRESSION_LENGTH, description: EXPRESSION_DESCRIPTION })
  @IsString() @MinLength(1) @MaxLength(MAX_RULE_EXPRESSION_LENGTH) expression!: string;

  @ApiProperty({ enum: RULE_ACTIONS, example: 'REVIEW' })
  @IsIn(RULE_ACTIONS, oneOf(RULE_ACTIONS)) action!: RuleAction;

  @ApiProperty({ enum: RULE_STATES_STORED, example: 'active', description: '`active` rules decide (source RULE); `passive` ones are reported only; `disabled` ones are not evaluated.' })
  @IsIn(RULE_STATES_STORED, oneOf(RULE_STATES_STORED)) state!: StoredRuleState;

  @ApiPropertyOptional({
    type: () => RuleTransactionOptimisationDto,
    description: '`pspBeforeAuth` rules only (400 elsewhere): when the rule triggers and is active, the answer\'s `transactionOptimisation` takes its exemption and challenge preference (`actionSource: CLIENT_RULE`).',
  })
  @IsOptional() @IsObject() @ValidateNested() @Type(() => RuleTransactionOptimisationDto) transactionOptimisation?: RuleTransactionOptimisationDto;
}

/** POST /v2/rules/validate. */
export class ValidateRuleRequestDto {
  @ApiProperty({ enum: RULE_CHECKPOINTS, example: 'customer' })
  @IsIn(RULE_CHECKPOINTS, oneOf(RULE_CHECKPOINTS)) checkpoint!: RuleCheckpoint;

  @ApiProperty({ example: 'score >= 70 && features.emailDisposable', maxLength: MAX_RULE_EXPRESSION_LENGTH, description: EXPRESSION_DESCRIPTION })
  @IsString() @MinLength(1) @MaxLength(MAX_RULE_EXPRESSION_LENGTH) expression!: string;
}

/** One rule of a backtest: a stored rule by id (its current version), or a draft. */
export class BacktestRuleDto {
  @ApiPropertyOptional({
    type: 'integer',
    example: 3,
    maximum: MAX_RULE_ID,
    description:
      'A stored rule of the account: alone, its current version; with `expression` and `action`, an edit of it (a draft in its place). Either way it takes that stored rule\'s place over every decision. Without it, `expression` and `action` make a draft added to the stored rules.',
  })
  @IsOptional() @IsInt() @Min(1) @Max(MAX_RULE_ID) ruleId?: number;

  @ApiPropertyOptional({ example: 'Draft: disposable e-mail', maxLength: MAX_RULE_NAME_LENGTH })
  @IsOptional() @IsString() @MaxLength(MAX_RULE_NAME_LENGTH) name?: string;

  @ApiPropertyOptional({ example: 'features.emailDisposable', maxLength: MAX_RULE_EXPRESSION_LENGTH, description: 'Required for a draft.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_RULE_EXPRESSION_LENGTH) expression?: string;

  @ApiPropertyOptional({ enum: RULE_ACTIONS, example: 'REVIEW', description: 'Required for a draft.' })
  @IsOptional() @IsIn(RULE_ACTIONS, oneOf(RULE_ACTIONS)) action?: RuleAction;
}

/** POST /v2/rules/backtest. */
export class BacktestRequestDto {
  @ApiProperty({ enum: RULE_CHECKPOINTS, example: 'customer' })
  @IsIn(RULE_CHECKPOINTS, oneOf(RULE_CHECKPOINTS)) checkpoint!: RuleCheckpoint;

  @ApiPropertyOptional({
    type: 'integer',
    example: 1763800000000,
    description: 'Decisions with `from <= timestamp`, epoch milliseconds (the payload time). Absent: the first decision of the checkpoint in the data set.',
  })
  @IsOptional() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) from?: number;

  @ApiPropertyOptional({
    type: 'integer',
    example: 1766400000000,
    description: 'Decisions with `timestamp < to`, epoch milliseconds. Absent: one millisecond after the last decision of the checkpoint in the data set.',
  })
  @IsOptional() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) to?: number;

  @ApiProperty({
    type: () => [BacktestRuleDto],
    description: 'The rules to try, 1 to 50: a draft is added to the checkpoint\'s stored rules as they stood at each decision; a stored rule by `ruleId` (or a draft carrying its `ruleId`) takes that rule\'s place.',
  })
  @ArrayMinSize(1) @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => BacktestRuleDto) rules!: BacktestRuleDto[];
}
