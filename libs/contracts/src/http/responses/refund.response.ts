import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTIONS, type Action, DECISION_SOURCES, type DecisionSource, WarningDto } from './customer-recommendation.response';
import { RulesBlockDto } from './rules.response';

/** `data` of the refund answer (decisions §9; the specification does not show the body). */
export class RefundRecommendationDto {
  @ApiProperty({ example: 'cus-61213', description: 'The customer requesting the refund.' }) customerId!: string;
  @ApiProperty({ enum: ACTIONS, example: 'ALLOW' }) action!: Action;
  @ApiProperty({ enum: DECISION_SOURCES, example: 'RINGFENCE', description: 'Which part of the service decided: the first that applies of MANUAL_REVIEW (a label of the subject), CHARGEBACK, RULE, LOOKUP, NETWORK and RINGFENCE (the model), in that order; RATE_LIMIT when the customer is over its limit.' }) source!: DecisionSource;
  @ApiProperty({ type: () => RulesBlockDto }) rules!: RulesBlockDto;
  @ApiPropertyOptional({ type: () => [WarningDto], description: 'Present when the answer is degraded (class `degraded`): the data was kept but a part missed its time budget.' })
  warnings?: WarningDto[];
}

/** POST /v2/refund: the recommendation for the refund request. */
export class RefundRecommendationResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => RefundRecommendationDto }) data!: RefundRecommendationDto;
}
