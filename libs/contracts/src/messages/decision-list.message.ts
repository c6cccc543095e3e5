import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { IsIntegerInRange } from '../http/shared/integer-range';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../checkpoints/checkpoint-names';
import { RULE_ACTIONS, type RuleAction } from '../http/rules/rule-vocabulary';
import type { RulesBlockDto } from '../http/responses/rules.response';
import type { DecisionExplanationDto } from '../http/responses/explanation.response';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';

/** The most decisions one page of `GET /v2/decisions` holds, and how many by default. */
export const MAX_DECISIONS_PAGE = 100;
export const DEFAULT_DECISIONS_PAGE = 50;

/** Whose decisions a list may be narrowed to: the subject kinds a checkpoint scores. */
export const DECISION_SUBJECT_TYPES = ['customer', 'supplier'] as const;
export type DecisionSubjectType = (typeof DECISION_SUBJECT_TYPES)[number];

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });

/** A place in the list (newest first): the decision's payload time and scoreId. */
export class DecisionListPositionMessage {
  @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) eventTime!: number;
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) scoreId!: string;
}

/**
 * `ringfence.rpc.scoring.read-decisions.v1`: a page of the envelope's tenant's decision records,
 * newest first by payload time (then scoreId), after `after` when given. `open`: only REVIEW
 * decisions whose subject has had no label applied since the decision (the review queue).
 */
export class ReadDecisionsRequest {
  @IsIntegerInRange(1, MAX_DECISIONS_PAGE) limit!: number;
  @IsOptional() @IsIn(RULE_CHECKPOINTS, oneOf(RULE_CHECKPOINTS)) checkpoint?: RuleCheckpoint;
  @IsOptional() @IsIn(RULE_ACTIONS, oneOf(RULE_ACTIONS)) action?: RuleAction;
  @IsOptional() @IsIn(DECISION_SUBJECT_TYPES, oneOf(DECISION_SUBJECT_TYPES)) subjectType?: DecisionSubjectType;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) subjectId?: string;
  /** Payload time, epoch ms: `from <= eventTime < to`. */
  @IsOptional() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) from?: number;
  @IsOptional() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) to?: number;
  @IsOptional() @IsBoolean() open?: boolean;
  @IsOptional() @ValidateNested() @Type(() => DecisionListPositionMessage) after?: DecisionListPositionMessage;
}

/** One decision of the list: what a console shows in a row (`GET /v2/decisions/:scoreId` has the rest). */
export interface DecisionSummaryMessage {
  scoreId: string;
  /** As rules and models name it (a PSP transaction's is pspBeforeAuth or pspAfterAuth). */
  checkpoint: RuleCheckpoint;
  action: RuleAction;
  /** The answer's score; null only for a record that has none. */
  score: number | null;
  source: string | null;
  subjectType: DecisionSubjectType | null;
  subjectId: string | null;
  customerId?: string;
  supplierId?: string;
  /** The payload's time, epoch ms. */
  eventTime: number;
  /** When the service accepted the request it decided (its clock), epoch ms: what `open` compares labels with. */
  decidedAt: number;
  rules: RulesBlockDto;
  explanation?: DecisionExplanationDto;
  modelVersion?: string;
}

export interface ReadDecisionsReply {
  decisions: DecisionSummaryMessage[];
  /** Where the next page starts; null when no decision is left. */
  next: DecisionListPositionMessage | null;
}
