import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ReviewerDto } from '../shared/reviewer.dto';
import {
  CUSTOMER_LABEL_CATEGORIES,
  CUSTOMER_LABEL_REVIEWS,
  type LabelCategory,
  type LabelReview,
  SUPPLIER_LABEL_CATEGORIES,
  SUPPLIER_LABEL_REVIEWS,
} from './label-vocabulary';

export const MAX_LABEL_COMMENT_LENGTH = 10_000;

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });

const REVIEW_REQUIRED =
  'Required in practice although the specification lists it as optional: a request without a review has nothing to apply and is answered 400 naming `review` (send `UNREVIEWED` to clear a category).';

/**
 * POST /v2/customer/:customerId/labels (specification §4.13). Which reviews a category allows,
 * the inference of an omitted category and the POTENTIALLY_ switch are checked by the
 * labelling service, whose 400 names `review`.
 */
export class CustomerLabelRequestDto {
  @ApiPropertyOptional({
    enum: CUSTOMER_LABEL_CATEGORIES,
    example: 'PAYMENT_FRAUD',
    description: 'When omitted it is inferred from `review`: PAYMENT_FRAUD for `UNREVIEWED`, the one category that allows the review otherwise.',
  })
  @IsOptional() @IsIn(CUSTOMER_LABEL_CATEGORIES, oneOf(CUSTOMER_LABEL_CATEGORIES)) category?: LabelCategory;

  @ApiProperty({
    enum: CUSTOMER_LABEL_REVIEWS,
    example: 'FRAUDSTER',
    description: `Case-sensitive. PAYMENT_FRAUD: FRAUDSTER, GENUINE, POTENTIALLY_FRAUDSTER, POTENTIALLY_GENUINE, UNREVIEWED; REFUND_ABUSE: REFUND_ABUSE, NOT_REFUND_ABUSE, UNREVIEWED. The POTENTIALLY_ reviews are refused (400) unless the account enabled them. UNREVIEWED clears the category's label. ${REVIEW_REQUIRED}`,
  })
  @IsIn(CUSTOMER_LABEL_REVIEWS, oneOf(CUSTOMER_LABEL_REVIEWS)) review!: LabelReview;

  @ApiPropertyOptional({ type: () => ReviewerDto, description: 'Who reviewed; kept in the audit log.' })
  @IsOptional() @ValidateNested() @Type(() => ReviewerDto) reviewer?: ReviewerDto;

  @ApiPropertyOptional({ example: 'Chargeback confirmed by the issuer.', maxLength: MAX_LABEL_COMMENT_LENGTH, description: 'Why; kept in the audit log.' })
  @IsOptional() @IsString() @MaxLength(MAX_LABEL_COMMENT_LENGTH) comment?: string;
}

/** POST /v2/supplier/:supplierId/labels (specification §4.14). */
export class SupplierLabelRequestDto {
  @ApiPropertyOptional({ enum: SUPPLIER_LABEL_CATEGORIES, example: 'SUPPLIER_FRAUD', description: 'The only supplier category; may be omitted.' })
  @IsOptional() @IsIn(SUPPLIER_LABEL_CATEGORIES, oneOf(SUPPLIER_LABEL_CATEGORIES)) category?: LabelCategory;

  @ApiProperty({
    enum: SUPPLIER_LABEL_REVIEWS,
    example: 'FRAUDULENT',
    description: `Case-sensitive. UNREVIEWED clears the supplier's label. ${REVIEW_REQUIRED}`,
  })
  @IsIn(SUPPLIER_LABEL_REVIEWS, oneOf(SUPPLIER_LABEL_REVIEWS)) review!: LabelReview;

  @ApiPropertyOptional({ type: () => ReviewerDto, description: 'Who reviewed; shown in the supplier profile and the audit log.' })
  @IsOptional() @ValidateNested() @Type(() => ReviewerDto) reviewer?: ReviewerDto;

  @ApiPropertyOptional({
    example: 'Identity documents did not match.',
    maxLength: MAX_LABEL_COMMENT_LENGTH,
    description: 'Not in the specification for suppliers; accepted and kept in the audit log like the customer twin.',
  })
  @IsOptional() @IsString() @MaxLength(MAX_LABEL_COMMENT_LENGTH) comment?: string;
}
