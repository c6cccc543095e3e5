import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RuleTransactionOptimisationDto } from './rule.request.dto';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../../checkpoints/checkpoint-names';
import { RULE_ACTIONS, RULE_STATES_SHOWN, type RuleAction, type ShownRuleState } from './rule-vocabulary';

/** ADR-0016: why a rule is suspended. */
export class RuleSuspensionDto {
  @ApiProperty({ example: '2026-11-25T18:00:00.000Z', description: 'When it was suspended (ISO 8601 UTC).' }) suspendedAt!: string;
  @ApiProperty({ example: 'failed 5 evaluations in a row; the last: over its time budget: 3.20 ms of 1 ms' }) reason!: string;
}

/** How often a rule triggered. */
export class RuleHitsDto {
  @ApiProperty({ type: 'integer', example: 3, description: 'In the last 24 hours.' }) last24h!: number;
  @ApiProperty({ type: 'integer', example: 41, description: 'In the last 30 days.' }) last30d!: number;
  @ApiProperty({ type: 'integer', example: 120, description: 'Ever.' }) total!: number;
}

/** A rule version as the API shows it (ADR-0011). */
export class RuleDto {
  @ApiProperty({ type: 'integer', example: 3 }) ruleId!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Every save adds one; versions are never erased.' }) ruleVersion!: number;
  @ApiProperty({ example: 'Large first payout' }) name!: string;
  @ApiProperty({ example: 'A payout above 500 to a supplier first seen today.' }) description!: string;
  @ApiProperty({ enum: RULE_CHECKPOINTS, example: 'payout' }) checkpoint!: RuleCheckpoint;
  @ApiProperty({ example: 'payload.payout.amount > 50000.0' }) expression!: string;
  @ApiProperty({ enum: RULE_ACTIONS, example: 'REVIEW' }) action!: RuleAction;
  @ApiProperty({
    enum: RULE_STATES_SHOWN,
    example: 'active',
    description: '`suspended`: this version kept failing (ADR-0016, docs/rules.md) and is not evaluated; `suspension` says why. Editing the rule (PUT) saves a new version, which is not.',
  })
  state!: ShownRuleState;
  @ApiProperty({ example: '2026-11-25T18:00:00.000Z', description: 'When this version was saved (ISO 8601 UTC).' }) createdAt!: string;
  @ApiProperty({ example: 'key_2Vb8…', description: 'The id of the API key that saved this version.' }) createdBy!: string;
  @ApiProperty({ example: 'ada@example.com', description: 'Who saved this version (the audit trail): the signed-in person\'s e-mail, or `key <keyId>` for an integration.' })
  author!: string;
  @ApiPropertyOptional({
    type: () => RuleHitsDto,
    description: 'The decisions the rule triggered on (active or passive), by when the service decided them. On `GET /v2/rules` and `data.rule` of `GET /v2/rules/{ruleId}`.',
  })
  hits?: RuleHitsDto;
  @ApiPropertyOptional({ type: 'integer', nullable: true, example: 1763800000000, description: 'Epoch ms of the latest decision the rule triggered on; null when none. Beside `hits`.' })
  lastHitAt?: number | null;
  @ApiPropertyOptional({ type: () => RuleTransactionOptimisationDto, description: 'pspBeforeAuth rules: the 3-D Secure advice it gives when it triggers.' })
  transactionOptimisation?: RuleTransactionOptimisationDto;
  @ApiPropertyOptional({ type: () => RuleSuspensionDto, description: 'Present when `state` is `suspended`.' }) suspension?: RuleSuspensionDto;
}

export class RuleListDataDto {
  @ApiProperty({ type: () => [RuleDto], description: 'The current version of each rule, by ruleId.' }) rules!: RuleDto[];
}

export class RuleListResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000000 }) timestamp!: number;
  @ApiProperty({ type: () => RuleListDataDto }) data!: RuleListDataDto;
}

export class RuleWithVersionsDataDto {
  @ApiProperty({ type: () => RuleDto, description: 'The current version.' }) rule!: RuleDto;
  @ApiProperty({ type: () => [RuleDto], description: 'Every version, oldest first.' }) versions!: RuleDto[];
}

export class RuleWithVersionsResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000000 }) timestamp!: number;
  @ApiProperty({ type: () => RuleWithVersionsDataDto }) data!: RuleWithVersionsDataDto;
}

export class ExpressionErrorDto {
  @ApiProperty({ example: 'Unknown variable: scor' }) message!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 0, description: '0-based offset in the expression the error points at.' }) position!: number | null;
}

/** POST /v2/rules/validate: answered 200 whether or not the expression is valid. */
export class ValidateRuleResponseDto {
  @ApiProperty({ example: false }) valid!: boolean;
  @ApiProperty({ type: () => [ExpressionErrorDto] }) errors!: ExpressionErrorDto[];
}

export class ActionCountsDto {
  @ApiProperty({ type: 'integer' }) ALLOW!: number;
  @ApiProperty({ type: 'integer' }) REVIEW!: number;
  @ApiProperty({ type: 'integer' }) PREVENT!: number;
}

/** Actions answered then (`before`) and with the tried rules instead of the stored ones (`after`). */
export class BacktestActionsDto {
  @ApiProperty({ type: () => ActionCountsDto }) before!: ActionCountsDto;
  @ApiProperty({ type: () => ActionCountsDto }) after!: ActionCountsDto;
}

export class BacktestRuleResultDto {
  @ApiPropertyOptional({ type: 'integer', description: 'Present for a stored rule.' }) ruleId?: number;
  @ApiProperty({ example: 'Large first payout' }) name!: string;
  @ApiProperty({ type: 'integer', description: 'Decisions at which the rule was true.' }) triggered!: number;
  @ApiProperty({ type: 'integer', description: 'Decisions at which the rule could not be evaluated (not triggered).' }) failed!: number;
}

export class ActionChangeDto {
  @ApiProperty({ enum: RULE_ACTIONS }) from!: RuleAction;
  @ApiProperty({ enum: RULE_ACTIONS }) to!: RuleAction;
  @ApiProperty({ type: 'integer' }) count!: number;
}

export class BacktestLabelledDto {
  @ApiProperty({ type: 'integer', description: 'Decisions whose subject is known now to be fraud (labels, unforgiven chargebacks).' }) fraud!: number;
  @ApiProperty({ type: 'integer', description: 'Of those, decisions at which a tried rule triggered.' }) fraudTriggered!: number;
  @ApiProperty({ type: 'integer', description: 'Decisions whose subject is labelled genuine now.' }) genuine!: number;
  @ApiProperty({ type: 'integer', description: 'Of those, decisions at which a tried rule triggered.' }) genuineTriggered!: number;
  @ApiProperty({ type: 'number', nullable: true, description: 'fraudTriggered / (fraudTriggered + genuineTriggered); null when no labelled decision triggered.' }) precision!: number | null;
  @ApiProperty({ type: 'number', nullable: true, description: 'fraudTriggered / fraud; null when no decision is of fraud.' }) recall!: number | null;
}

/** A decision of a backtest whose action changed or at which a tried rule triggered. */
export class BacktestMatchDto {
  @ApiProperty({ example: 'scr_2Vb8' }) scoreId!: string;
  @ApiProperty({ type: 'string', nullable: true, example: 'cus-1', description: 'The customer or supplier decided about.' }) subjectId!: string | null;
  @ApiProperty({ type: 'integer', example: 1763800000000, description: 'The decision\'s payload time, epoch milliseconds.' }) timestamp!: number;
  @ApiPropertyOptional({ type: 'number', example: 125.5, description: 'The amount decided on, in major units (payments, payouts, refunds).' }) amount?: number;
  @ApiPropertyOptional({ example: 'EUR' }) currency?: string;
  @ApiProperty({ enum: RULE_ACTIONS, description: 'The action answered then.' }) before!: RuleAction;
  @ApiProperty({ enum: RULE_ACTIONS, description: 'The action decided again with the tried rules.' }) after!: RuleAction;
  @ApiProperty({ type: 'string', enum: ['fraud', 'genuine'], nullable: true, description: 'What is known now (labels, unforgiven chargebacks and disputes); null when neither.' })
  outcome!: 'fraud' | 'genuine' | null;
}

/** POST /v2/rules/backtest (ADR-0011): what the rules would have changed. Changes nothing. */
export class BacktestResultDto {
  @ApiProperty({ type: 'integer', example: 1763800000000, description: 'The window used, `from <= timestamp` (epoch ms): as asked, or the first decision of the checkpoint.' }) from!: number;
  @ApiProperty({ type: 'integer', example: 1766400000000, description: 'The window used, `timestamp < to` (epoch ms): as asked, or one millisecond after the last decision.' }) to!: number;
  @ApiProperty({ type: 'integer', description: 'Decision events evaluated.' }) evaluated!: number;
  @ApiProperty({ type: () => [BacktestRuleResultDto] }) rules!: BacktestRuleResultDto[];
  @ApiProperty({ type: () => BacktestActionsDto }) actions!: BacktestActionsDto;
  @ApiProperty({ type: () => [ActionChangeDto] }) changed!: ActionChangeDto[];
  @ApiProperty({ type: () => BacktestLabelledDto }) labelled!: BacktestLabelledDto;
  @ApiProperty({
    type: () => [BacktestMatchDto],
    description: 'The decisions whose action changed or at which a tried rule triggered, newest first, at most 200.',
  })
  matches!: BacktestMatchDto[];
}

export class BacktestResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000000 }) timestamp!: number;
  @ApiProperty({ type: () => BacktestResultDto }) data!: BacktestResultDto;
}
