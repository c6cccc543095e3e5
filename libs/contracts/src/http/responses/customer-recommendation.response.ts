import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const ACTIONS = ['ALLOW', 'REVIEW', 'PREVENT'] as const;
export type Action = (typeof ACTIONS)[number];

/** decisions §1: which part of the service decided. */
export const DECISION_SOURCES = [
  'MANUAL_REVIEW',
  'CHARGEBACK',
  'RULE',
  'LOOKUP',
  'NETWORK',
  'RATE_LIMIT',
  'RINGFENCE',
] as const;
export type DecisionSource = (typeof DECISION_SOURCES)[number];

export class WarningDto {
  @ApiProperty({ example: 'customer-not-found' }) class!: string;
  @ApiProperty({ example: 'https://ringfence.example/docs/warnings#customer-not-found' }) help!: string;
  @ApiProperty({ example: 'No customer with id cus-1 is known.' }) msg!: string;
}

/** `data` of the customer-type responses (customer, voucher redemption). */
export class CustomerRecommendationDto {
  @ApiProperty({ enum: ACTIONS, example: 'ALLOW' }) action!: Action;
  @ApiProperty({ example: 12, description: 'Risk score, 0 (safe) to 100 (fraud).' }) score!: number;
  @ApiProperty({ enum: DECISION_SOURCES, example: 'RINGFENCE' }) source!: DecisionSource;
  @ApiProperty({ example: 'cus-61213' }) customerId!: string;
  @ApiProperty({ example: 'scr_01J...' }) scoreId!: string;
  @ApiPropertyOptional({ type: () => [WarningDto] }) warnings?: WarningDto[];
}

export class CustomerRecommendationResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => CustomerRecommendationDto }) data!: CustomerRecommendationDto;
}

/** The acknowledgement of ingest-only endpoints. */
export class AcknowledgementResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
}

/** decisions §1: every non-2xx body. */
export class ErrorEnvelopeDto {
  @ApiProperty({ example: 400 }) status!: number;
  @ApiProperty({ example: 'customer.customerId: must be a string' }) message!: string;
  @ApiProperty({ example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ example: '0f9d7a3c-5b1e-4a57-9a0e-2f3c1c9e8b11', description: 'Unique per request; also in the server log.' })
  traceId!: string;
}
