import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { LABEL_REVIEWS_BY_CATEGORY } from '../labels/label-vocabulary';
import { ReviewerDto } from '../shared/reviewer.dto';
import { IsOptionalNested } from '../../validation/nested.decorator';

/**
 * The PAYMENT_FRAUD reviews (specification §3): a connect review sets the label exactly as the
 * customer label endpoint does (ADR-0004), so it takes the same word list. POTENTIALLY_ values
 * are refused by the service unless enabled for the account: an account setting, not a shape rule.
 */
export const CONNECT_REVIEW_LABELS = LABEL_REVIEWS_BY_CATEGORY.PAYMENT_FRAUD;
export type ConnectReviewLabel = (typeof CONNECT_REVIEW_LABELS)[number];

/** A manual review sent with POST /v2/connect (specification §2.2, "Review (connect)"). */
export class ConnectReviewDto {
  @ApiProperty({
    enum: CONNECT_REVIEW_LABELS,
    example: 'FRAUDSTER',
    description: 'The PAYMENT_FRAUD label to set on the customer. Required: a review without one says nothing. `UNREVIEWED` clears the label.',
  })
  @IsIn(CONNECT_REVIEW_LABELS, { message: `must be one of ${CONNECT_REVIEW_LABELS.join(', ')}` }) label!: ConnectReviewLabel;
  @ApiPropertyOptional({ example: 'Same card as three known fraud accounts.', description: 'Reason; kept in the label audit log.' })
  @IsOptional() @IsString() comment?: string;
  @IsOptionalNested(() => ReviewerDto, 'Who reviewed; kept in the label audit log.') reviewer?: ReviewerDto;
}
