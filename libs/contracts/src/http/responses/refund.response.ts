import { ApiProperty } from '@nestjs/swagger';
import { ACTIONS, type Action, DECISION_SOURCES, type DecisionSource } from './customer-recommendation.response';
import { RulesBlockDto } from './rules.response';

/** `data` of the refund answer (decisions §9; the specification does not show the body). */
export class RefundRecommendationDto {
  @ApiProperty({ example: 'cus-61213', description: 'The customer requesting the refund.' }) customerId!: string;
  @ApiProperty({ enum: ACTIONS, example: 'ALLOW' }) action!: Action;
  @ApiProperty({ enum: DECISION_SOURCES, example: 'RINGFENCE', description: 'Which part of the service decided (decisions §1).' }) source!: DecisionSource;
  @ApiProperty({ type: () => RulesBlockDto }) rules!: RulesBlockDto;
}

/** POST /v2/refund: the recommendation for the refund request. */
export class RefundRecommendationResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => RefundRecommendationDto }) data!: RefundRecommendationDto;
}
