import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../checkpoints/checkpoint-names';
import { IsIntegerInRange } from '../http/shared/integer-range';
import { LABEL_SUBJECT_KINDS, type LabelSubjectKind } from '../http/labels/label-vocabulary';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';
import type { Environment } from './message-envelope';

/*
 * Cases (issue 37, ADR-0017): the REVIEW decisions of one customer or supplier grouped into a
 * case that analysts claim, annotate and close, and the per-payment reviews. The labelling
 * service owns them; the gateway asks it over these request topics.
 */

export const CASE_STATUSES = ['open', 'in_review', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
/** `active` (the default of the list): open and in review; `all`: every status (a subject's history). */
export const CASE_STATUS_FILTERS = ['open', 'in_review', 'closed', 'active', 'all'] as const;
export type CaseStatusFilter = (typeof CASE_STATUS_FILTERS)[number];
export const CASE_OUTCOMES = ['fraud', 'genuine', 'no_action'] as const;
export type CaseOutcome = (typeof CASE_OUTCOMES)[number];
export const CASE_ORDERS = ['age', 'score', 'amount', 'recent'] as const;
export type CaseOrder = (typeof CASE_ORDERS)[number];
export const CASE_ACTIONS = ['claim', 'assign', 'note', 'close', 'reopen'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];
export const BULK_CASE_ACTIONS = ['close', 'assign'] as const;
export type BulkCaseAction = (typeof BULK_CASE_ACTIONS)[number];
export const PAYMENT_REVIEW_DECISIONS = ['approve', 'decline', 'fraud', 'not_fraud'] as const;
export type PaymentReviewDecision = (typeof PAYMENT_REVIEW_DECISIONS)[number];

export const MAX_CASES_PAGE = 100;
export const DEFAULT_CASES_PAGE = 20;
export const MAX_BULK_CASES = 100;
export const MAX_CASE_NOTE_LENGTH = 4_000;
export const MAX_CASE_COMMENT_LENGTH = 1_000;
/** A cursor is base64url of `[order, sort value, caseId]`: well under this. */
export const MAX_CASE_CURSOR_LENGTH = 512;
/** An e-mail address or `key <keyId>` (`actorOf`), and a person's name. */
export const MAX_ACTOR_LENGTH = 320;

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });

/**
 * Who acts, as the gateway names them: `email` is `actorOf(principal)` (the person's e-mail, or
 * `key <keyId>` for an integration), the audit trail's name; `name` the person's display name.
 */
export class CaseActorMessage {
  @ApiProperty({ example: 'grace@merchant.example' }) @IsString() @MinLength(1) @MaxLength(MAX_ACTOR_LENGTH) email!: string;
  @ApiProperty({ example: 'Grace Hopper' }) @IsString() @MinLength(1) @MaxLength(MAX_ACTOR_LENGTH) name!: string;
}

/** A case as answered (times in epoch ms). */
export interface CaseMessage {
  caseId: string;
  subjectType: LabelSubjectKind;
  subjectId: string;
  status: CaseStatus;
  outcome: CaseOutcome | null;
  assignee: { email: string; name: string } | null;
  checkpoints: string[];
  decisionCount: number;
  maxScore: number;
  totalAmount: { amount: number; currency: string } | null;
  openedAt: number;
  lastDecisionAt: number;
  updatedAt: number;
  closedAt: number | null;
  version: number;
}

/** A per-payment review as answered; `withdrawnAt` set once it was undone. */
export interface PaymentReviewMessage {
  transactionId: string;
  customerId: string | null;
  decision: PaymentReviewDecision;
  actor: string;
  at: number;
  comment: string | null;
  withdrawnAt?: number;
  withdrawnBy?: string;
}

/** A decision of a case: what the console shows of it. */
export interface CaseDecisionMessage {
  scoreId: string;
  checkpoint: string;
  action: string;
  score: number;
  timestamp: number;
  transactionId?: string;
  orderId?: string;
  amount?: number;
  currency?: string;
  review?: PaymentReviewMessage;
}

export interface CaseNoteMessage {
  noteId: string;
  text: string;
  author: string;
  at: number;
}

export interface CaseAuditMessage {
  at: number;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
}

/** `ringfence.rpc.labelling.list-cases.v1`: a page of the tenant's cases. */
export class ListCasesRequest {
  @IsIn(CASE_STATUS_FILTERS, oneOf(CASE_STATUS_FILTERS)) status!: CaseStatusFilter;
  @IsOptional() @IsIn(RULE_CHECKPOINTS, oneOf(RULE_CHECKPOINTS)) checkpoint?: RuleCheckpoint;
  /** Only cases nobody holds. */
  @IsOptional() @IsBoolean() unassigned?: boolean;
  /** Only the cases this actor (`CaseActorMessage.email`) holds. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_ACTOR_LENGTH) assignee?: string;
  @IsOptional() @IsIn(LABEL_SUBJECT_KINDS, oneOf(LABEL_SUBJECT_KINDS)) subjectType?: LabelSubjectKind;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) subjectId?: string;
  @IsIn(CASE_ORDERS, oneOf(CASE_ORDERS)) order!: CaseOrder;
  @IsIntegerInRange(1, MAX_CASES_PAGE) limit!: number;
  @IsOptional() @IsString() @MaxLength(MAX_CASE_CURSOR_LENGTH) cursor?: string;
}

export interface ListCasesReply {
  cases: CaseMessage[];
  nextCursor: string | null;
  total: number;
}

/** `ringfence.rpc.labelling.read-case.v1`. */
export class ReadCaseRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) caseId!: string;
}

export interface ReadCaseReply {
  case: CaseMessage;
  decisions: CaseDecisionMessage[];
  notes: CaseNoteMessage[];
  audit: CaseAuditMessage[];
}

/**
 * `ringfence.rpc.labelling.case-action.v1`: one analyst's action on one case. `version` is the
 * version the analyst saw (every action but `note` checks it); `assignee` for `assign` (null:
 * nobody), `text` for `note`, `outcome` and `comment` for `close`.
 */
export class CaseActionRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) caseId!: string;
  @IsIn(CASE_ACTIONS, oneOf(CASE_ACTIONS)) action!: CaseAction;
  @ValidateNested() @Type(() => CaseActorMessage) actor!: CaseActorMessage;
  @IsOptional() @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) version?: number;
  @IsOptional() @ValidateNested() @Type(() => CaseActorMessage) assignee?: CaseActorMessage | null;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_CASE_NOTE_LENGTH) text?: string;
  @IsOptional() @IsIn(CASE_OUTCOMES, oneOf(CASE_OUTCOMES)) outcome?: CaseOutcome;
  @IsOptional() @IsString() @MaxLength(MAX_CASE_COMMENT_LENGTH) comment?: string;
}

export interface CaseActionReply {
  case: CaseMessage;
  /** The note an action `note` added. */
  note?: CaseNoteMessage;
}

/** `ringfence.rpc.labelling.next-case.v1`: claims the oldest open, unassigned case (of a checkpoint). */
export class NextCaseRequest {
  @ValidateNested() @Type(() => CaseActorMessage) actor!: CaseActorMessage;
  @IsOptional() @IsIn(RULE_CHECKPOINTS, oneOf(RULE_CHECKPOINTS)) checkpoint?: RuleCheckpoint;
}

export interface NextCaseReply {
  case: CaseMessage | null;
}

/** `ringfence.rpc.labelling.bulk-cases.v1`: one action on many cases, each at its current version. */
export class BulkCasesRequest {
  @ValidateNested() @Type(() => CaseActorMessage) actor!: CaseActorMessage;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_BULK_CASES) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_IDENTIFIER_LENGTH, { each: true })
  caseIds!: string[];
  @IsIn(BULK_CASE_ACTIONS, oneOf(BULK_CASE_ACTIONS)) action!: BulkCaseAction;
  @IsOptional() @IsIn(CASE_OUTCOMES, oneOf(CASE_OUTCOMES)) outcome?: CaseOutcome;
  @IsOptional() @ValidateNested() @Type(() => CaseActorMessage) assignee?: CaseActorMessage | null;
}

export interface BulkCasesReply {
  results: Array<{ caseId: string; ok: boolean; error?: string }>;
}

/** `ringfence.rpc.labelling.review-payment.v1`: the gateway has checked the payment is the tenant's. */
export class ReviewPaymentRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) transactionId!: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId?: string;
  @IsIn(PAYMENT_REVIEW_DECISIONS, oneOf(PAYMENT_REVIEW_DECISIONS)) decision!: PaymentReviewDecision;
  @ValidateNested() @Type(() => CaseActorMessage) actor!: CaseActorMessage;
  @IsOptional() @IsString() @MaxLength(MAX_CASE_COMMENT_LENGTH) comment?: string;
}

/** `ringfence.rpc.labelling.withdraw-payment-review.v1`: undoes the payment's current review. */
export class WithdrawPaymentReviewRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) transactionId!: string;
  @ValidateNested() @Type(() => CaseActorMessage) actor!: CaseActorMessage;
}

/**
 * `ringfence.label.payment.reviewed.v1`: an analyst reviewed one payment (`withdrawn` false), or
 * withdrew the review (`withdrawn` true; `decision` is the review withdrawn). On the warehouse
 * feed, and delivered to the data set's callback URL as `payment.reviewed`.
 */
export class PaymentReviewedEvent {
  @ApiProperty({ example: 'acc_01JCZ3V9Q8' }) @IsString() @MinLength(1) accountId!: string;
  @ApiProperty({ enum: ['test', 'live'] }) @IsIn(['test', 'live']) environment!: Environment;
  @ApiProperty({ example: 'txn-8812' }) @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) transactionId!: string;
  @ApiProperty({ type: 'string', nullable: true, example: 'cus-61213', description: 'The payment\'s customer as stored; null when it named none.' })
  @IsOptional() @IsString() @MaxLength(MAX_IDENTIFIER_LENGTH) customerId!: string | null;
  @ApiProperty({ enum: PAYMENT_REVIEW_DECISIONS }) @IsIn(PAYMENT_REVIEW_DECISIONS) decision!: PaymentReviewDecision;
  @ApiProperty({ description: 'true: this withdraws the review `decision` (an undo).' }) @IsBoolean() withdrawn!: boolean;
  @ApiProperty({ example: 'grace@merchant.example', description: 'Who acted: the person\'s e-mail, or `key <keyId>` for an integration.' })
  @IsString() @MinLength(1) @MaxLength(MAX_ACTOR_LENGTH) actor!: string;
  @ApiProperty({ type: 'string', nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CASE_COMMENT_LENGTH) comment!: string | null;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'When it was recorded, epoch milliseconds.' }) @IsInt() at!: number;
}
