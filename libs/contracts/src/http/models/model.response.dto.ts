import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '../../checkpoints/checkpoint-names';

export const MODEL_STATUSES = ['training', 'ready', 'failed'] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

/** What a training fits (docs/model.md, "The model" and "Baseline"). */
export const MODEL_ALGORITHMS = ['gradient-boosted-trees', 'logistic-regression'] as const;
export type ModelAlgorithm = (typeof MODEL_ALGORITHMS)[number];

/** Why a training example is a positive (docs/model.md, "Labels"). */
export const POSITIVE_REASONS = ['disputedPayment', 'analystMarkedFraud', 'customerLabelledFraudster', 'customerFraud', 'supplierFraudulent', 'refundAbuse'] as const;
export type PositiveReason = (typeof POSITIVE_REASONS)[number];

/** Where the model's scores 50 (REVIEW) and 80 (PREVENT) sit, in calibrated probability (docs/model.md, "Score scale"). */
export class ModelScoreScaleDto {
  @ApiProperty({ type: 'integer', example: 6, description: 'The probability of fraud, in percent, that scores 50: the REVIEW band catches 80 % of the fraud (within 5 % of the traffic) on examples the model did not learn from.' }) review!: number;
  @ApiProperty({ type: 'integer', example: 41, description: 'The probability, in percent, that scores 80: from there nine in ten of those examples were fraud; 100 when no probability reached that.' }) prevent!: number;
}

/** What training holds out (the latest 20 % of the examples in time) says of the model (ADR-0012). */
export class ModelMetricsDto {
  @ApiProperty({ example: 0.97, nullable: true, description: 'ROC AUC on the held-out examples; null when they hold only one class.' }) auc!: number | null;
  @ApiProperty({ example: 0.81, nullable: true, description: 'Average precision (area under the precision–recall curve) on them; null without a positive.' }) averagePrecision!: number | null;
  @ApiProperty({ example: 0.93, nullable: true, description: 'Precision of the scores at or above the account\'s PREVENT threshold; null when none is.' }) precisionAtPrevent!: number | null;
  @ApiProperty({ example: 0.88, nullable: true, description: 'Recall of the scores at or above the REVIEW threshold; null without a positive.' }) recallAtReview!: number | null;
  @ApiPropertyOptional({ type: () => ModelScoreScaleDto, description: 'The score scale the model chose (absent for models trained before scales, whose score is the probability).' }) scale?: ModelScoreScaleDto;
}

/** Where a training is, while it runs. */
export class ModelProgressDto {
  @ApiProperty({ enum: ['reading', 'training', 'baseline'], example: 'training', description: '`reading` the decisions and their labels, then `training` the trees, then fitting the `baseline` (the logistic regression).' })
  stage!: 'reading' | 'training' | 'baseline';
  @ApiProperty({ type: 'integer', example: 120, description: 'Examples read, trees built, or the baseline fitted (1 of 1).' }) done!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 300, description: 'Of how many, when known.' }) total!: number | null;
}

/**
 * The positives of a training counted by why the labelling policy made each one a positive
 * (docs/model.md, "Labels"); each positive is counted once, under the first reason that holds, so
 * they add up to `positives`.
 */
/** Payments left out of a training because their dispute may not have arrived yet (docs/model.md, "Labels"). */
export class ModelLabelMaturityDto {
  @ApiProperty({ example: 9.8, description: "How long this account's disputes take: 95 % of its disputed payments in the period were disputed within this many days." })
  horizonDays!: number;
  @ApiProperty({ type: 'integer', example: 1767916800000, description: 'Payments made after this time (epoch ms: the newest dispute known, less the horizon) were left out of the examples: their disputes may still come.' })
  cutoff!: number;
  @ApiProperty({ type: 'integer', example: 5210, description: 'How many decisions of the period were left out for it.' })
  leftOut!: number;
}

export class ModelPositivesByReasonDto {
  @ApiProperty({ type: 'integer', example: 412, description: 'PSP checkpoints: the payment itself was disputed and the dispute not forgiven.' }) disputedPayment!: number;
  @ApiProperty({ type: 'integer', example: 12, description: "PSP checkpoints: an analyst's current review of the payment itself says fraud (`POST /v2/payments/:transactionId/review {decision: \"fraud\"}`, not withdrawn); 0 for models trained before such reviews counted, which had none." })
  analystMarkedFraud!: number;
  @ApiProperty({ type: 'integer', example: 35, description: 'PSP checkpoints: the payment of a customer already labelled FRAUDSTER when it was decided.' }) customerLabelledFraudster!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Customer-level checkpoints (customer, registration, voucher redemption, refund): the customer is labelled FRAUDSTER or has a chargeback not forgiven.' }) customerFraud!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'A supplier subject (payout, a supplier registration) labelled FRAUDULENT.' }) supplierFraudulent!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Refunds: the customer is labelled REFUND_ABUSE.' }) refundAbuse!: number;
}

/** One algorithm a training fitted, with what the held-out part says of it. */
export class ModelCandidateDto {
  @ApiProperty({ enum: MODEL_ALGORITHMS, example: 'logistic-regression' }) algorithm!: ModelAlgorithm;
  @ApiProperty({ type: () => ModelMetricsDto, description: 'On the same held-out latest 20 % as every other candidate (its `scale` only on the served model\'s `metrics`).' }) metrics!: ModelMetricsDto;
}

/** A trained (or training) model of one checkpoint. */
export class ModelDto {
  @ApiProperty({ example: 'mdl_4fQ2kq1ZxW0bY7nP3sTu' }) modelId!: string;
  @ApiProperty({ enum: RULE_CHECKPOINTS, example: 'pspBeforeAuth' }) checkpoint!: RuleCheckpoint;
  @ApiProperty({ enum: MODEL_STATUSES, example: 'ready' }) status!: ModelStatus;
  @ApiProperty({ example: '2026-11-25T18:00:00.000Z', description: 'When training was asked for (ISO 8601 UTC).' }) createdAt!: string;
  @ApiProperty({ example: 'key_2Vb8…', description: 'The id of the API key that asked.' }) createdBy!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 1763800000000, description: 'The period learnt from: decisions with `from <= timestamp < to` (epoch ms); null for the first.' }) from!: number | null;
  @ApiProperty({ type: 'integer', example: 1766400000000 }) to!: number;
  @ApiProperty({ type: 'integer', example: 48210, description: 'Decisions learnt from (0 while reading).' }) examples!: number;
  @ApiProperty({ type: 'integer', example: 447, description: 'Of which positives: fraud as known now, by the labelling policy (docs/model.md, "Labels").' }) positives!: number;
  @ApiProperty({
    type: () => ModelPositivesByReasonDto,
    nullable: true,
    description: 'The positives by why each is one (they add up to `positives`); null until the model is ready, and for models trained before reasons were counted.',
  })
  positivesByReason!: ModelPositivesByReasonDto | null;
  @ApiProperty({
    enum: MODEL_ALGORITHMS,
    nullable: true,
    example: 'gradient-boosted-trees',
    description: 'The algorithm that serves: the gradient-boosted trees, unless the logistic regression baseline had the strictly higher average precision on the held-out part. Null until ready.',
  })
  algorithm!: ModelAlgorithm | null;
  @ApiProperty({
    type: () => ModelLabelMaturityDto,
    nullable: true,
    description:
      "At the PSP checkpoints, the payments left out because their dispute may not have arrived yet (from the account's own dispute delays); null when nothing was left out, with fewer than 20 disputed payments, until ready, and for models trained before it.",
  })
  labelMaturity!: ModelLabelMaturityDto | null;
  @ApiProperty({ type: () => ModelMetricsDto, nullable: true, description: "The served model's held-out metrics; null until the model is ready." }) metrics!: ModelMetricsDto | null;
  @ApiProperty({ type: () => [ModelCandidateDto], description: 'Every algorithm the training fitted (the trees, then the baseline), each judged on the same held-out part; empty until ready.' })
  candidates!: ModelCandidateDto[];
  @ApiProperty({
    example: false,
    description: 'It scores its checkpoint; at most one model per checkpoint is. The shipped default is active while no trained model of its checkpoint is (beside the built-in model: the higher score answers, docs/model.md).',
  })
  active!: boolean;
  @ApiPropertyOptional({
    example: true,
    description: 'The default model shipped with the product for the checkpoint (`modelId` `default-<checkpoint>`): `createdAt` is its release file\'s time, `createdBy` `ringfence`, and `examples`, `positives` and `metrics` are from the simulated traffic it was trained on. Absent for a trained model.',
  })
  shipped?: boolean;
  @ApiPropertyOptional({ example: 'mdl_default_pspBeforeAuth_3f2a9c01b7d4', description: 'The shipped default: the id decisions record as their `modelVersion` (it changes with each release of the model).' })
  version?: string;
  @ApiPropertyOptional({ type: () => ModelProgressDto, description: 'While training.' }) progress?: ModelProgressDto;
  @ApiPropertyOptional({ example: 'needs at least 20 positives and 20 negatives; the period has 3 positives', description: 'Why it failed.' }) error?: string;
}

export class ModelListDataDto {
  @ApiProperty({ type: () => [ModelDto], description: 'Newest first.' }) models!: ModelDto[];
}

export class ModelListResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000000 }) timestamp!: number;
  @ApiProperty({ type: () => ModelListDataDto }) data!: ModelListDataDto;
}

/** POST /v2/models/train answers 202 at once: training runs off the request path. */
export class TrainModelAcceptedDto {
  @ApiProperty({ example: 'mdl_4fQ2kq1ZxW0bY7nP3sTu' }) modelId!: string;
  @ApiProperty({ enum: MODEL_STATUSES, example: 'training' }) status!: ModelStatus;
}
