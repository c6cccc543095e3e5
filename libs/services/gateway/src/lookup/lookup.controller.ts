import { Body, Controller, Delete, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  LookupAddRequestDto,
  LookupAddResponseDto,
  LookupDeleteQueryDto,
  LookupDeleteResponseDto,
  LookupReadQueryDto,
  LookupReadResponseDto,
  LookupReviewerDto,
} from '@ringfence/contracts';
import { CurrentPrincipal, IntegrationRoute, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { LookupUseCase } from './lookup.use-case';

const CONSORTIUM =
  "Indicators are shared between accounts in aggregate only: another account's evidence is counted, never shown (no account, id, comment or reviewer), and only within the same data set (sandbox keys see sandbox data, live keys live data).";

@ApiTags('Lookup')
@ApiSecurity('apiKey')
@ApiExtraModels(LookupReviewerDto)
@Controller('v2/lookup')
export class LookupController {
  constructor(private readonly lookup: LookupUseCase) {}

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add known-fraud indicators with their evidence',
    description: [
      'Records the indicators sent (`email`, `telephone`, `ipAddress`, `paymentMethod` with exactly one of instrumentId, payerId, bankId; at least one) for this account.',
      'Every chargeback and manual review of the body is evidence for **every** indicator of the same body; an indicator sent without evidence is recorded as a bare report and is known all the same.',
      'Evidence is identified by `chargebackId` / `reviewId` (else by its content), so sending it again counts it once.',
      '`timestamp` is in **seconds**; milliseconds and nanoseconds are recognised by magnitude. An indicator is seen at its own `timestamp`, else the body\'s.',
      'Indicators are normalised: e-mail trimmed and lower-cased; telephone as E.164 (read with `countryCode`: ISO alpha-3, alpha-2 or a calling code), else its digits; IP addresses in canonical form.',
      'The answer lists the indicators as stored. Additions are published on `ringfence.ingest.lookup.indicators-added.v1`.',
      CONSORTIUM,
    ].join(' '),
  })
  @ApiOkResponse({ type: LookupAddResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  add(@CurrentPrincipal() principal: Principal, @Body() body: LookupAddRequestDto, @Req() request: FastifyRequest): Promise<LookupAddResponseDto> {
    return this.lookup.add(principal, body, String(request.id));
  }

  @SecretKeyRoute()
  @Get()
  @ApiOperation({
    summary: 'Read what is known about indicators',
    description: [
      'At least one indicator parameter is required (400 otherwise). `data` has one entry per indicator asked, by parameter name: `{value, known, chargebacks, manualReviews, firstSeen, lastSeen, sources}`.',
      '`chargebacks` and `manualReviews` count this account\'s and other accounts\' evidence; `sources` counts evidence by kind (`chargeback`, `manualReview`, and `report`: accounts that reported the indicator without evidence).',
      '`firstSeen`/`lastSeen` are epoch milliseconds (null when unknown). `ipFromTime` (Unix seconds) leaves out IP-address evidence seen before it; `limitIndustry=true` counts other accounts only when they are of this account\'s industry.',
      CONSORTIUM,
    ].join(' '),
  })
  @ApiOkResponse({ type: LookupReadResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  read(@CurrentPrincipal() principal: Principal, @Query() query: LookupReadQueryDto, @Req() request: FastifyRequest): Promise<LookupReadResponseDto> {
    return this.lookup.read(principal, query, String(request.id));
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Delete()
  @ApiOperation({
    summary: "Delete this account's indicators",
    description:
      "Removes this account's records of the indicators named (at least one; 400 otherwise) and their evidence; other accounts' records stay. The answer counts, per indicator asked, the pieces of evidence removed (chargebacks, reviews, bare reports); 200 with 0 when nothing matched. Deletions are published on `ringfence.ingest.lookup.indicators-deleted.v1`.",
  })
  @ApiOkResponse({ type: LookupDeleteResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  delete(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LookupDeleteQueryDto,
    @Req() request: FastifyRequest,
  ): Promise<LookupDeleteResponseDto> {
    return this.lookup.delete(principal, query, String(request.id));
  }
}
