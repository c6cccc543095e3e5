import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { BacktestRequestDto, RuleRequestDto, RuleTransactionOptimisationDto, ValidateRuleRequestDto } from '../http/rules/rule.request.dto';
import type { BacktestResultDto, ValidateRuleResponseDto } from '../http/rules/rule.response.dto';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../checkpoints/checkpoint-names';
import { MAX_RULE_ID, RULE_ACTIONS, RULE_STATES_STORED, type RuleAction, type StoredRuleState } from '../http/rules/rule-vocabulary';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';

/** An actor's name: an e-mail address (at most 254 characters) or `key <keyId>`. */
const MAX_ACTOR_LENGTH = 320;

/** ADR-0016: why and since when a rule version is not evaluated. */
export class RuleSuspensionMessage {
  @ApiProperty({ type: 'integer', example: 1763800000000, description: 'Epoch milliseconds.' }) @IsInt() suspendedAt!: number;
  @ApiProperty({ example: 'failed 5 evaluations in a row; the last: over its time budget: 3.20 ms of 1 ms' }) @IsString() reason!: string;
}

/** A rule version on the bus and on `ringfence.config.rule.saved.v1` (times in epoch milliseconds). */
export class RuleVersionMessage {
  @ApiProperty({ type: 'integer', example: 3 }) @IsInt() @Min(1) ruleId!: number;
  @ApiProperty({ type: 'integer', example: 1 }) @IsInt() @Min(1) ruleVersion!: number;
  @ApiProperty({ example: 'Large first payout' }) @IsString() name!: string;
  @ApiProperty({ example: '' }) @IsString() description!: string;
  @ApiProperty({ enum: RULE_CHECKPOINTS, example: 'payout' }) @IsIn(RULE_CHECKPOINTS) checkpoint!: RuleCheckpoint;
  @ApiProperty({ example: 'payload.payout.amount > 50000.0' }) @IsString() expression!: string;
  @ApiProperty({ enum: RULE_ACTIONS, example: 'REVIEW' }) @IsIn(RULE_ACTIONS) action!: RuleAction;
  @ApiProperty({ enum: RULE_STATES_STORED, example: 'active' }) @IsIn(RULE_STATES_STORED) state!: StoredRuleState;
  @ApiProperty({ type: 'integer', example: 1763800000000, description: 'When this version was saved, epoch milliseconds.' }) @IsInt() createdAt!: number;
  @ApiProperty({ example: 'key_2Vb8', description: 'The id of the API key that saved it.' }) @IsString() createdBy!: string;
  @ApiPropertyOptional({ example: 'ada@example.com', description: 'Who saved it: the signed-in person\'s e-mail, or `key <keyId>` (absent from versions saved before it was recorded).' })
  @IsOptional() @IsString() author?: string;
  @ApiPropertyOptional({ type: () => RuleTransactionOptimisationDto })
  @IsOptional() @ValidateNested() @Type(() => RuleTransactionOptimisationDto) transactionOptimisation?: RuleTransactionOptimisationDto;
  @ApiPropertyOptional({ type: () => RuleSuspensionMessage, description: 'Present when this version kept failing and is suspended (ADR-0016).' })
  @IsOptional() @ValidateNested() @Type(() => RuleSuspensionMessage) suspension?: RuleSuspensionMessage;
}

/** `ringfence.rpc.scoring.save-rule.v1`: a new rule (no ruleId) or a new version of one. */
export class SaveRuleRequest {
  @IsOptional() @IsInt() @Min(1) @Max(MAX_RULE_ID) ruleId?: number;
  @ValidateNested() @Type(() => RuleRequestDto) rule!: RuleRequestDto;
  /** The API key that asked (the version's createdBy). */
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) author!: string;
  /** Who acted, as audit trails name them (actorOf): the version's author; `key <author>` when absent. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_ACTOR_LENGTH) actor?: string;
}

/** `ringfence.rpc.scoring.disable-rule.v1`: a new version of the rule with state `disabled`. */
export class DisableRuleRequest {
  @IsInt() @Min(1) @Max(MAX_RULE_ID) ruleId!: number;
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) author!: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_ACTOR_LENGTH) actor?: string;
}

/** The saved version; null when the rule is unknown. */
export interface SaveRuleReply {
  rule: RuleVersionMessage | null;
}

/** `ringfence.rpc.scoring.read-rules.v1`: the current versions (of one checkpoint when given). */
export class ReadRulesRequest {
  @IsOptional() @IsIn(RULE_CHECKPOINTS) checkpoint?: RuleCheckpoint;
}

/** A rule's hits: the decisions that recorded it as true, by the service's time of deciding. */
export interface RuleHitsMessage {
  ruleId: number;
  last24h: number;
  last30d: number;
  total: number;
  /** Epoch ms. */
  lastHitAt: number;
}

export interface ReadRulesReply {
  rules: RuleVersionMessage[];
  /** Of the rules with any hit (one read for the list); a rule not listed has none. */
  hits: RuleHitsMessage[];
}

/** `ringfence.rpc.scoring.read-rule.v1`: one rule's versions, oldest first (empty when unknown). */
export class ReadRuleRequest {
  @IsInt() @Min(1) @Max(MAX_RULE_ID) ruleId!: number;
}

export interface ReadRuleReply {
  versions: RuleVersionMessage[];
  /** The rule's hits; null when it has none. */
  hits: RuleHitsMessage | null;
}

/** `ringfence.rpc.scoring.validate-rule.v1`. */
export class ValidateRuleRequest extends ValidateRuleRequestDto {}
export type ValidateRuleReply = ValidateRuleResponseDto;

/** `ringfence.rpc.scoring.backtest-rules.v1`. */
export class BacktestRulesRequest extends BacktestRequestDto {}
export type BacktestRulesReply = BacktestResultDto;

/**
 * `ringfence.config.rule.saved.v1`: every saved rule version (the audit trail of rules), which
 * every scoring instance applies to its rule book. The envelope names the account and data set.
 */
export class RuleChangedEvent {
  @ApiProperty({ type: () => RuleVersionMessage }) @ValidateNested() @Type(() => RuleVersionMessage) rule!: RuleVersionMessage;
}

/** `ringfence.rpc.scoring.read-decision.v1`: one decision event by its scoreId. */
export class ReadDecisionRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) scoreId!: string;
}

/** The decision event's payload as published; null when the tenant has no such decision. */
export interface ReadDecisionReply {
  decision: Record<string, unknown> | null;
}
