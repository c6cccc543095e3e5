import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../../checkpoints/checkpoint-names';
import {
  BULK_CASE_ACTIONS,
  type BulkCaseAction,
  CASE_ORDERS,
  CASE_OUTCOMES,
  CASE_STATUS_FILTERS,
  type CaseOrder,
  type CaseOutcome,
  type CaseStatusFilter,
  DEFAULT_CASES_PAGE,
  MAX_ACTOR_LENGTH,
  MAX_BULK_CASES,
  MAX_CASES_PAGE,
  MAX_CASE_COMMENT_LENGTH,
  MAX_CASE_CURSOR_LENGTH,
  MAX_CASE_NOTE_LENGTH,
  PAYMENT_REVIEW_DECISIONS,
  type PaymentReviewDecision,
} from '../../messages/cases.message';
import { LABEL_CATEGORIES, LABEL_SUBJECT_KINDS, type LabelCategory, type LabelSubjectKind } from '../labels/label-vocabulary';
import { IsIntegerInRange } from '../shared/integer-range';
import { IsOptionalQueryInteger } from '../shared/query-parameters';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });
const VERSION_DESCRIPTION = 'The case\'s `version` as last read: a case changed since is refused (409, naming who holds it).';

/** `GET /v2/cases`: every parameter optional; filters combine (AND). */
export class CaseListQueryDto {
  @ApiPropertyOptional({ enum: CASE_STATUS_FILTERS, default: 'active', description: '`active` (default): open and in review; `all`: every status.' })
  @IsOptional() @IsIn(CASE_STATUS_FILTERS, oneOf(CASE_STATUS_FILTERS)) status?: CaseStatusFilter;

  @ApiPropertyOptional({ enum: RULE_CHECKPOINTS, description: 'Only cases with a decision of this checkpoint (as rules name it).' })
  @IsOptional() @IsIn(RULE_CHECKPOINTS, oneOf(RULE_CHECKPOINTS)) checkpoint?: RuleCheckpoint;

  @ApiPropertyOptional({ example: 'me', maxLength: MAX_ACTOR_LENGTH, description: '`me` (the cases I hold), `none` (nobody holds them), or a person\'s e-mail (or `key <keyId>`).' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_ACTOR_LENGTH) assignee?: string;

  @ApiPropertyOptional({ enum: LABEL_SUBJECT_KINDS, description: 'Required with `subjectId`.' })
  @IsOptional() @IsIn(LABEL_SUBJECT_KINDS, oneOf(LABEL_SUBJECT_KINDS)) subjectType?: LabelSubjectKind;

  @ApiPropertyOptional({ example: 'cus-61213', maxLength: MAX_IDENTIFIER_LENGTH, description: 'Only this customer\'s or supplier\'s cases.' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) subjectId?: string;

  @ApiPropertyOptional({ enum: CASE_ORDERS, default: 'recent', description: '`age` oldest opened first; `score` highest first; `amount` largest total first; `recent` (default) newest decision first.' })
  @IsOptional() @IsIn(CASE_ORDERS, oneOf(CASE_ORDERS)) order?: CaseOrder;

  @IsOptionalQueryInteger(1, MAX_CASES_PAGE, `Cases per page, 1 to ${MAX_CASES_PAGE}; default ${DEFAULT_CASES_PAGE}.`, DEFAULT_CASES_PAGE)
  limit?: number;

  @ApiPropertyOptional({ maxLength: MAX_CASE_CURSOR_LENGTH, description: 'The `nextCursor` of the previous page, with the same filters and order.' })
  @IsOptional() @IsString() @MaxLength(MAX_CASE_CURSOR_LENGTH) cursor?: string;
}

/** `POST /v2/cases/{caseId}/claim` and `/reopen`. */
export class CaseVersionDto {
  @ApiProperty({ type: 'integer', example: 3, description: VERSION_DESCRIPTION }) @IsIntegerInRange(1, Number.MAX_SAFE_INTEGER) version!: number;
}

/** `POST /v2/cases/{caseId}/assign`. */
export class AssignCaseDto extends CaseVersionDto {
  @ApiProperty({ type: 'string', nullable: true, example: 'grace@merchant.example', description: 'The person\'s e-mail, or null to leave the case to nobody (open).' })
  @IsDefined({ message: 'is required (an e-mail, or null)' }) @ValidateIf((_, value) => value !== null) @IsEmail() @MaxLength(MAX_ACTOR_LENGTH)
  assignee!: string | null;
}

/** `POST /v2/cases/{caseId}/notes`. */
export class CaseNoteDto {
  @ApiProperty({ maxLength: MAX_CASE_NOTE_LENGTH, example: 'Same card as cus-77, who charged back in May.' })
  @IsString() @MinLength(1) @MaxLength(MAX_CASE_NOTE_LENGTH) text!: string;
}

/** `POST /v2/cases/{caseId}/close`: closing applies no label (the label API does). */
export class CloseCaseDto extends CaseVersionDto {
  @ApiProperty({ enum: CASE_OUTCOMES }) @IsIn(CASE_OUTCOMES, oneOf(CASE_OUTCOMES)) outcome!: CaseOutcome;
  @ApiPropertyOptional({ maxLength: MAX_CASE_COMMENT_LENGTH }) @IsOptional() @IsString() @MaxLength(MAX_CASE_COMMENT_LENGTH) comment?: string;
}

/** `POST /v2/cases/next`. */
export class NextCaseDto {
  @ApiPropertyOptional({ enum: RULE_CHECKPOINTS, description: 'Only a case with a decision of this checkpoint.' })
  @IsOptional() @IsIn(RULE_CHECKPOINTS, oneOf(RULE_CHECKPOINTS)) checkpoint?: RuleCheckpoint;
}

/** `POST /v2/cases/bulk`. */
export class BulkCasesDto {
  @ApiProperty({ type: [String], maxItems: MAX_BULK_CASES, example: ['cas_4kq0J2'] })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_BULK_CASES) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_IDENTIFIER_LENGTH, { each: true })
  caseIds!: string[];
  @ApiProperty({ enum: BULK_CASE_ACTIONS }) @IsIn(BULK_CASE_ACTIONS, oneOf(BULK_CASE_ACTIONS)) action!: BulkCaseAction;
  @ApiPropertyOptional({ enum: CASE_OUTCOMES, description: 'Required with `close`.' }) @IsOptional() @IsIn(CASE_OUTCOMES, oneOf(CASE_OUTCOMES)) outcome?: CaseOutcome;
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'With `assign`: an e-mail, or null.' })
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsEmail() @MaxLength(MAX_ACTOR_LENGTH) assignee?: string | null;
}

/** `POST /v2/payments/{transactionId}/review`. */
export class PaymentReviewDto {
  @ApiProperty({ enum: PAYMENT_REVIEW_DECISIONS }) @IsIn(PAYMENT_REVIEW_DECISIONS, oneOf(PAYMENT_REVIEW_DECISIONS)) decision!: PaymentReviewDecision;
  @ApiPropertyOptional({ maxLength: MAX_CASE_COMMENT_LENGTH }) @IsOptional() @IsString() @MaxLength(MAX_CASE_COMMENT_LENGTH) comment?: string;
}

/** `POST /v2/customer/{customerId}/labels/undo` (and the supplier's). */
export class LabelUndoDto {
  @ApiProperty({ enum: LABEL_CATEGORIES, example: 'PAYMENT_FRAUD' }) @IsIn(LABEL_CATEGORIES, oneOf(LABEL_CATEGORIES)) category!: LabelCategory;
}

/** The OpenAPI shape of every case answer: the envelope, `data` described in docs/api.md. */
export class CaseAnswerDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000000 }) timestamp!: number;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'See docs/api.md, "Cases".' }) data!: Record<string, unknown>;
}
