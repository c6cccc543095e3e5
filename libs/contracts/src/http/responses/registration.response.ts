import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTIONS, type Action, DECISION_SOURCE_DESCRIPTION, DECISION_SOURCES, type DecisionSource, WarningDto } from './customer-recommendation.response';
import { RulesBlockDto } from './rules.response';
import { DecisionExplanationDto } from './explanation.response';

/**
 * `credentialStatus` of the registration answer (ADR-0006 and ADR-0009; its fields are not shown in
 * the specification): whether the registering credentials are in the breached-credentials
 * store. Deliberately no field named after a hash (ADR-0009).
 */
export class CredentialStatusDto {
  @ApiProperty({ example: false, description: 'The username was found in the breached-credentials store.' }) usernameBreached!: boolean;
  @ApiProperty({ example: false, description: 'The password was found among the breached or most common passwords.' }) passwordBreached!: boolean;
}

/** `data` of the registration answer (specification §2.2, "Registration recommendation data"). */
export class RegistrationRecommendationDto {
  @ApiProperty({ enum: ACTIONS, example: 'ALLOW' }) action!: Action;
  @ApiProperty({ enum: DECISION_SOURCES, example: 'RINGFENCE', description: DECISION_SOURCE_DESCRIPTION }) source!: DecisionSource;
  @ApiPropertyOptional({ example: 'sup-2231', description: 'Present when a supplier registered.' }) supplierId?: string;
  @ApiPropertyOptional({ example: 'cus-61213', description: 'Present when a customer registered.' }) customerId?: string;
  @ApiProperty({ example: 'reg_01JCZ4B7K2', description: 'Identifier the service gave this registration attempt (the request carries none).' })
  registrationId!: string;
  @ApiProperty({ type: 'integer', example: 23, description: 'Risk score, 0 (safe) to 100 (fraud): the model\'s, or the end of the scale a label or chargeback implies (0 when not scored: rate limited or degraded). An extension: the specification does not list it here.' }) score!: number;
  @ApiProperty({ example: 'scr_01JD2XK8Q3', description: 'Identifies this decision: `GET /v2/decisions/{scoreId}` reads it with its reasons. An extension: the specification does not list it here.' }) scoreId!: string;
  @ApiProperty({ type: () => RulesBlockDto }) rules!: RulesBlockDto;
  @ApiProperty({ type: () => CredentialStatusDto }) credentialStatus!: CredentialStatusDto;
  @ApiPropertyOptional({ type: () => [WarningDto], description: 'Present when the answer is degraded (class `degraded`): the data was kept but a part missed its time budget.' })
  warnings?: WarningDto[];
  @ApiPropertyOptional({ type: () => DecisionExplanationDto, description: 'Why: present when the request asked `?explain=true` (also on the decision event and at `GET /v2/decisions/{scoreId}`).' })
  explanation?: DecisionExplanationDto;
}

/**
 * POST /v2/registration (specification §4.7). `credentialStatus` is inside `data` and mirrored at
 * the top level, because the specification lists it in both places (ADR-0009).
 */
export class RegistrationRecommendationResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => RegistrationRecommendationDto }) data!: RegistrationRecommendationDto;
  @ApiProperty({ type: () => CredentialStatusDto, description: 'The same as `data.credentialStatus`.' }) credentialStatus!: CredentialStatusDto;
}
