import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { DecisionListQueryDto, DecisionListResponseDto, MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { DecisionListUseCase } from './decision-list.use-case';
import { DecisionPathDto } from './rule-path.dto';
import { RulesUseCase } from './rules.use-case';

const LIST_DESCRIPTION = [
  "The decisions of the key's account and data set (`_test_`/`_live_`) that scoring made (every answer with a `scoreId`; rate-limited and degraded answers have none), newest first by `eventTime` (the payload's time), then `scoreId`, both descending. Readable from the moment the checkpoint was answered.",
  'Filters combine: `action`, `checkpoint` (as rules and models name it), `subjectType` with `subjectId`, `from <= eventTime < to` (ms).',
  "`open=true` is the review queue: REVIEW decisions whose subject has no current label applied at or after the decision's `decidedAt` (any category; a category cleared with UNREVIEWED is no label). A decision leaves it on the request after its subject is labelled.",
  'Pages: `limit` 1 to 100 (default 50); pass `nextCursor` as `cursor`, with the same filters, for the next page; null when none is left. A review-queue page reads at most 5 × (`limit` + 1) decisions, so it may hold fewer than `limit` (even none) and still have a `nextCursor`.',
].join(' ');

@ApiTags('Decisions')
@ApiSecurity('apiKey')
@Controller('v2/decisions')
export class DecisionsController {
  constructor(
    private readonly rules: RulesUseCase,
    private readonly decisions: DecisionListUseCase,
  ) {}

  // Declared before ':scoreId' so that the bare path is the list, not a read of an empty id.
  @SecretKeyRoute()
  @Get()
  @ApiOperation({
    summary: 'List decisions, newest first; open=true is the review queue',
    description: LIST_DESCRIPTION,
  })
  @ApiOkResponse({ type: DecisionListResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  list(@CurrentPrincipal() principal: Principal, @Query() query: DecisionListQueryDto, @Req() request: FastifyRequest): Promise<DecisionListResponseDto> {
    return this.decisions.list(principal, query, String(request.id));
  }

  @SecretKeyRoute()
  @Get(':scoreId')
  @ApiOperation({
    summary: 'Read a decision by its scoreId',
    description:
      'The decision event as published on its decision topic (ADR-0012): `recommendation` (the answer given), `features`, `rules` (evaluated, triggered, failed), `context` (what the rules read), `signals` (the other sources\' verdicts) and `subject`. Readable from the moment the checkpoint was answered. 404 for a scoreId of another data set or none.',
  })
  @ApiParam({ name: 'scoreId', schema: { type: 'string', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH } })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'integer' }, timestamp: { type: 'integer' }, data: { type: 'object', additionalProperties: true } } } })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  read(@CurrentPrincipal() principal: Principal, @Param() path: DecisionPathDto, @Req() request: FastifyRequest) {
    return this.rules.decision(principal, path.scoreId, String(request.id));
  }
}
