import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ReviewerDto } from '../shared/reviewer.dto';
import { LABEL_CATEGORIES, LABEL_REVIEWS, type LabelCategory, type LabelReview } from './label-vocabulary';

const EVENT_TIME = { example: '2025-11-26T09:15:02.123Z', description: 'When the review was applied: ISO 8601 UTC with milliseconds and `Z`.' };

/** The answer of both label POSTs (ADR-0008). */
export class LabelAppliedResponseDto {
  @ApiProperty(EVENT_TIME) eventTime!: string;
}

/** A category's current label. */
export class CurrentLabelDto {
  @ApiProperty({ example: 'FRAUDSTER', description: 'Never UNREVIEWED: a cleared category is absent from `labels`.' }) review!: LabelReview;
  @ApiProperty(EVENT_TIME) eventTime!: string;
  @ApiProperty({ type: () => ReviewerDto, nullable: true, description: 'null when the request named no reviewer.' }) reviewer!: ReviewerDto | null;
  @ApiProperty({ type: String, nullable: true, example: 'Chargeback confirmed by the issuer.' }) comment!: string | null;
}

/** One applied review, as the audit log keeps it. */
export class LabelHistoryEntryDto {
  @ApiProperty({ enum: LABEL_CATEGORIES, example: 'PAYMENT_FRAUD' }) category!: LabelCategory;
  @ApiProperty({ enum: LABEL_REVIEWS, example: 'FRAUDSTER', description: 'UNREVIEWED entries record a clearing.' })
  review!: LabelReview;
  @ApiProperty({ type: String, nullable: true, example: 'GENUINE', description: "The category's label before this review; null when it had none." })
  previous!: LabelReview | null;
  @ApiProperty(EVENT_TIME) eventTime!: string;
  @ApiProperty({ type: () => ReviewerDto, nullable: true }) reviewer!: ReviewerDto | null;
  @ApiProperty({ type: String, nullable: true }) comment!: string | null;
}

/** The customer's current labels by category; a category without a label is absent. */
export class CustomerCurrentLabelsDto {
  @ApiPropertyOptional({ type: () => CurrentLabelDto }) PAYMENT_FRAUD?: CurrentLabelDto;
  @ApiPropertyOptional({ type: () => CurrentLabelDto }) REFUND_ABUSE?: CurrentLabelDto;
}

export class SupplierCurrentLabelsDto {
  @ApiPropertyOptional({ type: () => CurrentLabelDto }) SUPPLIER_FRAUD?: CurrentLabelDto;
}

export class CustomerLabelsDto {
  @ApiProperty({
    type: () => CustomerCurrentLabelsDto,
    example: { PAYMENT_FRAUD: { review: 'FRAUDSTER', eventTime: '2025-11-26T09:15:02.123Z', reviewer: { name: 'Grace Hopper', email: 'grace.hopper@merchant.example' }, comment: 'Chargeback confirmed by the issuer.' } },
  })
  labels!: CustomerCurrentLabelsDto;
  @ApiProperty({
    type: () => [LabelHistoryEntryDto],
    description: 'Every review applied, oldest first (newest last).',
    example: [
      { category: 'PAYMENT_FRAUD', review: 'GENUINE', previous: null, eventTime: '2025-11-20T16:01:44.907Z', reviewer: null, comment: null },
      {
        category: 'PAYMENT_FRAUD',
        review: 'FRAUDSTER',
        previous: 'GENUINE',
        eventTime: '2025-11-26T09:15:02.123Z',
        reviewer: { name: 'Grace Hopper', email: 'grace.hopper@merchant.example' },
        comment: 'Chargeback confirmed by the issuer.',
      },
    ],
  })
  history!: LabelHistoryEntryDto[];
}

export class SupplierLabelsDto {
  @ApiProperty({
    type: () => SupplierCurrentLabelsDto,
    example: { SUPPLIER_FRAUD: { review: 'FRAUDULENT', eventTime: '2025-11-26T09:15:02.123Z', reviewer: { name: 'Grace Hopper' }, comment: null } },
  })
  labels!: SupplierCurrentLabelsDto;
  @ApiProperty({
    type: () => [LabelHistoryEntryDto],
    description: 'Every review applied, oldest first (newest last).',
    example: [{ category: 'SUPPLIER_FRAUD', review: 'FRAUDULENT', previous: null, eventTime: '2025-11-26T09:15:02.123Z', reviewer: { name: 'Grace Hopper' }, comment: null }],
  })
  history!: LabelHistoryEntryDto[];
}

export class CustomerLabelsResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1764148502123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => CustomerLabelsDto }) data!: CustomerLabelsDto;
}

export class SupplierLabelsResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1764148502123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => SupplierLabelsDto }) data!: SupplierLabelsDto;
}
