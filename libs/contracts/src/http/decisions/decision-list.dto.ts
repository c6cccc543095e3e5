import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength, registerDecorator } from 'class-validator';
import {
  DECISION_SUBJECT_TYPES,
  DEFAULT_DECISIONS_PAGE,
  type DecisionListPositionMessage,
  type DecisionSubjectType,
  MAX_DECISIONS_PAGE,
} from '../../messages/decision-list.message';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { DecisionExplanationDto } from '../responses/explanation.response';
import { DECISION_SOURCES } from '../responses/customer-recommendation.response';
import { RulesBlockDto } from '../responses/rules.response';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../../checkpoints/checkpoint-names';
import { RULE_ACTIONS, type RuleAction } from '../rules/rule-vocabulary';
import { IsOptionalQueryBoolean, IsOptionalQueryInteger } from '../shared/query-parameters';

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });

/**
 * The longest `cursor` accepted. A cursor is base64url of `[eventTime, scoreId]`: with a scoreId
 * of the longest identifier (300 characters) it is about 430 characters.
 */
export const MAX_DECISION_CURSOR_LENGTH = 512;

/** The opaque `nextCursor` of a position: clients pass it back as sent, and never build one. */
export function encodeDecisionCursor(position: DecisionListPositionMessage): string {
  return Buffer.from(JSON.stringify([position.eventTime, position.scoreId]), 'utf8').toString('base64url');
}

/** The position a cursor names; null for anything this service did not make. */
export function decodeDecisionCursor(cursor: string): DecisionListPositionMessage | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) return null;
  const [eventTime, scoreId] = decoded as unknown[];
  if (typeof eventTime !== 'number' || !Number.isSafeInteger(eventTime) || eventTime < 0) return null;
  if (typeof scoreId !== 'string' || scoreId.length === 0 || scoreId.length > MAX_IDENTIFIER_LENGTH) return null;
  return { eventTime, scoreId };
}

function IsDecisionCursor(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isDecisionCursor',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: 'must be a nextCursor of this route, as it was answered' },
      // A cursor too long is MaxLength's to report, in one message.
      validator: { validate: (value: unknown) => typeof value === 'string' && (value.length > MAX_DECISION_CURSOR_LENGTH || decodeDecisionCursor(value) !== null) },
    });
  };
}

/** `GET /v2/decisions`: every parameter optional; filters combine (AND). */
export class DecisionListQueryDto {
  @ApiPropertyOptional({ enum: RULE_ACTIONS, description: 'Only decisions answered with this action.' })
  @IsOptional() @IsIn(RULE_ACTIONS, oneOf(RULE_ACTIONS)) action?: RuleAction;

  @ApiPropertyOptional({ enum: RULE_CHECKPOINTS, description: 'Only decisions of this checkpoint, named as rules and models name it (a PSP transaction\'s is `pspBeforeAuth` or `pspAfterAuth`).' })
  @IsOptional() @IsIn(RULE_CHECKPOINTS, oneOf(RULE_CHECKPOINTS)) checkpoint?: RuleCheckpoint;

  @ApiPropertyOptional({ enum: DECISION_SUBJECT_TYPES, description: 'Only decisions about a customer, or about a supplier (a supplier\'s payout or registration). Required with `subjectId`.' })
  @IsOptional() @IsIn(DECISION_SUBJECT_TYPES, oneOf(DECISION_SUBJECT_TYPES)) subjectType?: DecisionSubjectType;

  @ApiPropertyOptional({ example: 'cus-61213', maxLength: MAX_IDENTIFIER_LENGTH, description: 'Only decisions about this customer or supplier (with `subjectType`).' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) subjectId?: string;

  @IsOptionalQueryInteger(0, Number.MAX_SAFE_INTEGER, 'Only decisions with `from <= eventTime` (the payload\'s time, epoch milliseconds).')
  from?: number;

  @IsOptionalQueryInteger(0, Number.MAX_SAFE_INTEGER, 'Only decisions with `eventTime < to` (epoch milliseconds); greater than `from` when both are given.')
  to?: number;

  @IsOptionalQueryBoolean(
    '`true`: the review queue. Only REVIEW decisions whose subject has had no label applied since the decision was made (no current label with an `eventTime` at or after the decision\'s `decidedAt`); a decision leaves it as soon as its subject is labelled. `false` is the same as leaving it out.',
  )
  open?: boolean;

  @IsOptionalQueryInteger(1, MAX_DECISIONS_PAGE, `Decisions per page, 1 to ${MAX_DECISIONS_PAGE}; default ${DEFAULT_DECISIONS_PAGE}.`, DEFAULT_DECISIONS_PAGE)
  limit?: number;

  @ApiPropertyOptional({ maxLength: MAX_DECISION_CURSOR_LENGTH, description: 'The `nextCursor` of the previous page, as answered, with the same filters: the page after it.' })
  @IsOptional() @IsString() @MaxLength(MAX_DECISION_CURSOR_LENGTH) @IsDecisionCursor() cursor?: string;
}

/** One decision of the list; `GET /v2/decisions/{scoreId}` reads the whole event. */
export class DecisionSummaryDto {
  @ApiProperty({ example: 'scr_2Vb8xKp' }) scoreId!: string;
  @ApiProperty({ enum: RULE_CHECKPOINTS, example: 'customer' }) checkpoint!: RuleCheckpoint;
  @ApiProperty({ enum: RULE_ACTIONS, example: 'REVIEW', description: 'The action answered.' }) action!: RuleAction;
  @ApiProperty({ type: 'integer', nullable: true, example: 57, description: 'The score answered, 0 (safe) to 100 (fraud).' }) score!: number | null;
  @ApiProperty({ enum: DECISION_SOURCES, nullable: true, example: 'RULE', description: 'The part of the service that decided (ADR-0001).' }) source!: string | null;
  @ApiProperty({ enum: DECISION_SUBJECT_TYPES, nullable: true, example: 'customer', description: 'Whose checkpoint it was.' }) subjectType!: DecisionSubjectType | null;
  @ApiProperty({ type: String, nullable: true, example: 'cus-61213' }) subjectId!: string | null;
  @ApiPropertyOptional({ example: 'cus-61213', description: 'The answer\'s customerId, where it had one.' }) customerId?: string;
  @ApiPropertyOptional({ example: 'sup-2231', description: 'The answer\'s supplierId, where it had one.' }) supplierId?: string;
  @ApiProperty({ type: 'integer', example: 1763800000000, description: 'The payload\'s time, epoch milliseconds: what the list is ordered by and `from`/`to` compare.' }) eventTime!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'When the service accepted the request it decided (its own clock), epoch milliseconds: a label applied at or after it takes the decision out of the review queue.' }) decidedAt!: number;
  @ApiProperty({ type: () => RulesBlockDto, description: 'The answer\'s rules block: the rules that triggered, and `passiveAction`.' }) rules!: RulesBlockDto;
  @ApiPropertyOptional({ type: () => DecisionExplanationDto, description: 'Why, as recorded with the decision.' }) explanation?: DecisionExplanationDto;
  @ApiPropertyOptional({ example: 'ringfence-additive-1', description: 'The model that scored.' }) modelVersion?: string;
}

export class DecisionListDataDto {
  @ApiProperty({ type: () => [DecisionSummaryDto], description: 'Newest first: by eventTime, then scoreId, descending.' }) decisions!: DecisionSummaryDto[];
  @ApiProperty({ type: String, nullable: true, example: 'WzE3NjM4MDAwMDAwMDAsInNjcl8yVmI4eEtwIl0', description: 'Pass as `cursor` for the next page; null when there is none. A page may hold fewer than `limit` decisions and still have a next one (the review queue reads a bounded number of decisions per request).' }) nextCursor!: string | null;
}

export class DecisionListResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000000 }) timestamp!: number;
  @ApiProperty({ type: () => DecisionListDataDto }) data!: DecisionListDataDto;
}
