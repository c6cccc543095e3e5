import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
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

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });

/** Who a label request is about: a customer or a supplier of the envelope's tenant. */
export class LabelSubjectMessage {
  @IsIn(LABEL_SUBJECT_KINDS, oneOf(LABEL_SUBJECT_KINDS)) subjectKind!: LabelSubjectKind;
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) subjectId!: string;
}

/**
 * `ringfence.rpc.labelling.apply-label.v1`: apply one review. The labelling service checks
 * what depends on the subject kind and the account (which category allows the review, the
 * POTENTIALLY_ switch) and infers an omitted category.
 */
export class ApplyLabelRequest extends LabelSubjectMessage {
  @IsOptional() @IsIn(LABEL_CATEGORIES, oneOf(LABEL_CATEGORIES)) category?: LabelCategory;
  @IsIn(LABEL_REVIEWS, oneOf(LABEL_REVIEWS)) review!: LabelReview;
  @IsOptional() @ValidateNested() @Type(() => ReviewerDto) reviewer?: ReviewerDto;
  @IsOptional() @IsString() @MaxLength(MAX_LABEL_COMMENT_LENGTH) comment?: string;
}

export class ApplyLabelReply {
  /** When the review was applied, epoch milliseconds. */
  eventTime!: number;
}

/** `ringfence.rpc.labelling.read-labels.v1`: a subject's current labels and audit log. */
export class ReadLabelsRequest extends LabelSubjectMessage {}

/** A category's current label on the bus (times in epoch milliseconds). */
export class CurrentLabelMessage {
  review!: LabelReview;
  eventTime!: number;
  reviewer!: ReviewerDto | null;
  comment!: string | null;
}

export class LabelHistoryEntryMessage {
  category!: LabelCategory;
  review!: LabelReview;
  previous!: LabelReview | null;
  eventTime!: number;
  reviewer!: ReviewerDto | null;
  comment!: string | null;
}

export class ReadLabelsReply {
  /** Only the categories that have a label; UNREVIEWED clears a category. */
  labels!: Partial<Record<LabelCategory, CurrentLabelMessage>>;
  /** Oldest first. */
  history!: LabelHistoryEntryMessage[];
}
