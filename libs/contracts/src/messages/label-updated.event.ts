import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { MAX_LABEL_COMMENT_LENGTH } from '../http/labels/label-request.dto';
import { ReviewerDto } from '../http/shared/reviewer.dto';
import {
  LABEL_CATEGORIES,
  LABEL_REVIEWS,
  LABEL_SUBJECT_KINDS,
  type LabelCategory,
  type LabelReview,
  type LabelSubjectKind,
} from '../http/labels/label-vocabulary';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';
import type { Environment } from './message-envelope';

/**
 * `ringfence.label.customer.updated.v1` and `ringfence.label.supplier.updated.v1`: a review was
 * applied (published after it was stored). The graph and scoring keep their view of who is a
 * fraudster from these: the category's current label is `review`, or none when `review` is
 * UNREVIEWED. Self-contained for the warehouse: it repeats the envelope's tenant.
 */
export class LabelUpdatedEvent {
  @ApiProperty({ example: 'acc_01JCZ3V9Q8' }) @IsString() @MinLength(1) accountId!: string;
  @ApiProperty({ enum: ['test', 'live'] }) @IsIn(['test', 'live']) environment!: Environment;
  @ApiProperty({ enum: LABEL_SUBJECT_KINDS }) @IsIn(LABEL_SUBJECT_KINDS) subjectKind!: LabelSubjectKind;
  @ApiProperty({ example: 'cus-61213' }) @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) subjectId!: string;
  @ApiProperty({ enum: LABEL_CATEGORIES }) @IsIn(LABEL_CATEGORIES) category!: LabelCategory;
  @ApiProperty({ enum: LABEL_REVIEWS, description: 'UNREVIEWED clears the category.' }) @IsIn(LABEL_REVIEWS) review!: LabelReview;
  /** The category's label before this review; null when it had none. */
  @ApiProperty({ enum: LABEL_REVIEWS, nullable: true, description: "The category's label before this review; null when it had none." })
  @IsOptional() @IsIn(LABEL_REVIEWS) previous!: LabelReview | null;
  /** When the review was applied, epoch milliseconds. */
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'When the review was applied, epoch milliseconds.' }) @IsInt() eventTime!: number;
  @ApiProperty({ type: () => ReviewerDto, nullable: true }) @IsOptional() @ValidateNested() @Type(() => ReviewerDto) reviewer!: ReviewerDto | null;
  @ApiProperty({ type: 'string', nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_LABEL_COMMENT_LENGTH) comment!: string | null;
}
