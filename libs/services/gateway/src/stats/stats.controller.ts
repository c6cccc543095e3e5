import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { MAX_FRAUD_FACTS, MAX_STATS_BUCKETS, StatsOverviewQueryDto, StatsOverviewResponseDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { StatsOverviewUseCase } from './stats-overview.use-case';

const OVERVIEW_DESCRIPTION = [
  "The key's data set (`_test_`/`_live_`) over a window of payload time `from <= eventTime < to` (default: the data set's period, first decision to 1 ms after the last; the last day when it has none), in time buckets (default: the smallest of hour, day, week that keeps the window within",
  `${MAX_STATS_BUCKETS} buckets; an asked bucket making more is refused).`,
  'Per bucket: decisions by action and by deciding source. Over the window: the review rate, rule hits (hits / decisions of the rule\'s checkpoint), the model\'s score in ten bins,',
  'and fraud caught and missed: decisions on a subject whose current label is FRAUDSTER or on a PSP transaction with a dispute, answered PREVENT or REVIEW (caught) or ALLOW (missed), with their payment amounts per currency.',
  `At most ${MAX_FRAUD_FACTS} fraud subjects and ${MAX_FRAUD_FACTS} disputed transactions are counted (\`fraud.truncated\` says when more are known). A decision answered, a label applied before the request is in it.`,
].join(' ');

@ApiTags('Stats')
@ApiSecurity('apiKey')
@Controller('v2/stats')
export class StatsController {
  constructor(private readonly stats: StatsOverviewUseCase) {}

  @SecretKeyRoute()
  @Get('overview')
  @ApiOperation({ summary: 'Decisions over time, review rate, fraud caught and missed, rule hits, score distribution', description: OVERVIEW_DESCRIPTION })
  @ApiOkResponse({ type: StatsOverviewResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  overview(@CurrentPrincipal() principal: Principal, @Query() query: StatsOverviewQueryDto, @Req() request: FastifyRequest): Promise<StatsOverviewResponseDto> {
    return this.stats.overview(principal, query, String(request.id));
  }
}
