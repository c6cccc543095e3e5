import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { MAX_STATS_BUCKETS, STATS_BUCKETS, type StatsBucket } from '../../messages/stats.messages';
import { IsOptionalQueryInteger } from '../shared/query-parameters';

/** `GET /v2/stats/overview`: every parameter optional. */
export class StatsOverviewQueryDto {
  @IsOptionalQueryInteger(0, Number.MAX_SAFE_INTEGER, 'Decisions with `from <= eventTime` (the payload\'s time, epoch ms). Default: the data set\'s first decision.')
  from?: number;

  @IsOptionalQueryInteger(1, Number.MAX_SAFE_INTEGER, 'Decisions with `eventTime < to` (epoch ms); greater than `from`. Default: 1 ms after the data set\'s last decision.')
  to?: number;

  @ApiPropertyOptional({
    enum: STATS_BUCKETS,
    description: `The time bucket. Default: the smallest that keeps the window within ${MAX_STATS_BUCKETS} buckets; a bucket that would make more is refused (400).`,
  })
  @IsOptional() @IsIn(STATS_BUCKETS, { message: `must be one of ${STATS_BUCKETS.join(', ')}` })
  bucket?: StatsBucket;
}

export class StatsDecisionBucketDto {
  @ApiProperty({ example: 1763798400000, description: 'The bucket\'s start, epoch ms (UTC hours and days; weeks from Monday 00:00 UTC).' }) at!: number;
  @ApiProperty({ example: 12 }) total!: number;
  @ApiProperty({ example: 9 }) ALLOW!: number;
  @ApiProperty({ example: 2 }) REVIEW!: number;
  @ApiProperty({ example: 1 }) PREVENT!: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, example: { RINGFENCE: 10, RULE: 2 }, description: 'Decisions per deciding source; `NONE` for an answer without one.' })
  bySource!: Record<string, number>;
}

export class StatsFraudOutcomeDto {
  @ApiProperty({ example: 3, description: 'Decisions on known fraud.' }) decisions!: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, example: { GBP: 5997 }, description: 'Their payment amounts, minor units, per currency (decisions without an amount add none).' })
  amounts!: Record<string, number>;
}

export class StatsFraudDto {
  @ApiProperty({ type: () => StatsFraudOutcomeDto, description: 'Decisions on known fraud answered PREVENT or REVIEW.' }) caught!: StatsFraudOutcomeDto;
  @ApiProperty({ type: () => StatsFraudOutcomeDto, description: 'Decisions on known fraud answered ALLOW.' }) missed!: StatsFraudOutcomeDto;
  @ApiProperty({ example: 4, description: 'Subjects whose current label is FRAUDSTER (in any category), as counted.' }) fraudSubjects!: number;
  @ApiProperty({ example: 1, description: 'PSP transactions with a dispute, as counted.' }) disputedTransactions!: number;
  @ApiProperty({ example: false, description: 'More fraud subjects or disputed transactions are known than one overview counts (5000 each).' }) truncated!: boolean;
}

export class StatsRuleHitsDto {
  @ApiProperty({ type: 'integer', example: 42 }) ruleId!: number;
  @ApiProperty({ example: 'Card country differs from IP country' }) name!: string;
  @ApiProperty({ example: 'pspBeforeAuth' }) checkpoint!: string;
  @ApiProperty({ example: 14 }) hits!: number;
  @ApiProperty({ example: 0.035, description: 'hits / decisions of the rule\'s checkpoint in the window.' }) rate!: number;
}

export class StatsScoreBinDto {
  @ApiProperty({ example: 0 }) from!: number;
  @ApiProperty({ example: 10 }) to!: number;
  @ApiProperty({ example: 120 }) count!: number;
}

export class StatsScoresDto {
  @ApiProperty({ type: () => [StatsScoreBinDto], description: 'The model\'s score of each decision, bins of 10 on 0-100: `from <= score < to`, the last holds 100.' })
  bins!: StatsScoreBinDto[];
}

export class StatsOverviewDataDto {
  @ApiProperty({ example: 1763798400000, description: 'The window used, epoch ms: `from <= eventTime < to`.' }) from!: number;
  @ApiProperty({ example: 1763884800000 }) to!: number;
  @ApiProperty({ enum: STATS_BUCKETS }) bucket!: StatsBucket;
  @ApiProperty({ type: () => [StatsDecisionBucketDto], description: 'Every bucket of the window, oldest first, empty ones included.' }) decisions!: StatsDecisionBucketDto[];
  @ApiProperty({ example: 240 }) total!: number;
  @ApiProperty({ example: 0.05, description: 'REVIEW decisions / decisions of the window (0 when none).' }) reviewRate!: number;
  @ApiProperty({ type: () => StatsFraudDto }) fraud!: StatsFraudDto;
  @ApiProperty({ type: () => [StatsRuleHitsDto], description: 'Rules that triggered in the window, most hits first (at most 100).' }) rules!: StatsRuleHitsDto[];
  @ApiProperty({ type: () => StatsScoresDto }) scores!: StatsScoresDto;
}

export class StatsOverviewResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000000 }) timestamp!: number;
  @ApiProperty({ type: () => StatsOverviewDataDto }) data!: StatsOverviewDataDto;
}
