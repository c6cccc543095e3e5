import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { MAX_LABEL_COMMENT_LENGTH } from '../labels/label-request.dto';
import { UNREVIEWED } from '../labels/label-vocabulary';
import { ReviewerDto } from '../shared/reviewer.dto';
import { IsRequiredNested } from '../../validation/nested.decorator';
import { IsRequiredIdentifier } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';

/**
 * The reviews of the deprecated legacy v2/label endpoint (specification §9.2): the payment-fraud
 * verdicts it had. The POTENTIALLY_ reviews and the REFUND_ABUSE category came with the customer
 * label endpoint that replaces it, and are sent there.
 */
export const LEGACY_LABEL_REVIEWS = ['FRAUDSTER', 'GENUINE', UNREVIEWED] as const;
export type LegacyLabelReview = (typeof LEGACY_LABEL_REVIEWS)[number];

/** The `label` object of the legacy label event: a customer's payment-fraud review. */
export class LegacyCustomerLabelDto {
  @IsRequiredIdentifier('cus-61213', 'The customer reviewed.') customerId!: string;

  @ApiProperty({ enum: LEGACY_LABEL_REVIEWS, example: 'FRAUDSTER', description: 'Case-sensitive. The customer’s PAYMENT_FRAUD review; UNREVIEWED clears it.' })
  @IsIn(LEGACY_LABEL_REVIEWS, { message: `must be one of ${LEGACY_LABEL_REVIEWS.join(', ')}` })
  label!: LegacyLabelReview;

  @ApiPropertyOptional({ example: 'Chargeback confirmed by the issuer.', maxLength: MAX_LABEL_COMMENT_LENGTH, description: 'Why; kept in the audit log.' })
  @IsOptional() @IsString() @MaxLength(MAX_LABEL_COMMENT_LENGTH) comment?: string;

  @ApiPropertyOptional({ type: () => ReviewerDto, description: 'Who reviewed; kept in the audit log.' })
  @IsOptional() @ValidateNested() @Type(() => ReviewerDto) reviewer?: ReviewerDto;
}

/**
 * POST /v2/label/customer, the deprecated legacy label event (specification §9.2): what the
 * original service's client libraries still send. The gateway applies it as the customer label
 * endpoint (§4.13) that replaces it, category PAYMENT_FRAUD.
 */
export class LegacyLabelRequestDto {
  @IsOptionalTimestamp('When the event was sent (Unix time, any precision). Accepted and not used: as on the customer label endpoint, a review takes effect, and is dated, when it is applied.')
  timestamp?: number;

  @IsRequiredNested(() => LegacyCustomerLabelDto, 'The review.') label!: LegacyCustomerLabelDto;
}
