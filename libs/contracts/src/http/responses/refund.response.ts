import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTIONS, type Action, DECISION_SOURCE_DESCRIPTION, DECISION_SOURCES, type DecisionSource, WarningDto } from './customer-recommendation.response';
import { RulesBlockDto } from './rules.response';
import { DecisionExplanationDto } from './explanation.response';

/** `data` of the refund answer (ADR-0009; the specification does not show the body). */
export class RefundRecommendationDto {
  @ApiProperty({ example: 'cus-61213', description: 'The customer requesting the refund.' }) customerId!: string;
  @ApiProperty({ enum: ACTIONS, example: 'ALLOW' }) action!: Action;
  @ApiProperty({ enum: DECISION_SOURCES, example: 'RINGFENCE', description: DECISION_SOURCE_DESCRIPTION }) source!: DecisionSource;
  @ApiProperty({ type: 'integer', example: 23, description: 'Risk score, 0 (safe) to 100 (fraud): the model\'s, or the end of the scale a label or chargeback implies (0 when not scored: rate limited or degraded). An extension: the specification does not list it here.' }) score!: number;
  @ApiProperty({ example: 'scr_01JD2XK8Q3', description: 'Identifies this decision: `GET /v2/decisions/{scoreId}` reads it with its reasons. An extension: the specification does not list it here.' }) scoreId!: string;
  @ApiProperty({ type: () => RulesBlockDto }) rules!: RulesBlockDto;
  @ApiPropertyOptional({ type: () => [WarningDto], description: 'Present when the answer is degraded (class `degraded`): the data was kept but a part missed its time budget.' })
  warnings?: WarningDto[];
  @ApiPropertyOptional({ type: () => DecisionExplanationDto, description: 'Why: present when the request asked `?explain=true` (also on the decision event and at `GET /v2/decisions/{scoreId}`).' })
  explanation?: DecisionExplanationDto;
}

/** POST /v2/refund: the recommendation for the refund request. */
export class RefundRecommendationResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => RefundRecommendationDto }) data!: RefundRecommendationDto;
}
