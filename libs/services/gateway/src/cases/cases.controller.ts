import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { AssignCaseDto, BulkCasesDto, CaseAnswerDto, CaseListQueryDto, CaseNoteDto, CaseVersionDto, CloseCaseDto, MAX_IDENTIFIER_LENGTH, NextCaseDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { CasePathDto } from './case-path.dto';
import { CasesUseCase } from './cases.use-case';

const CASE_ID_PARAM = { name: 'caseId', schema: { type: 'string', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH } } as const;
const CONFLICT = 'A 409 when the version is stale or another person holds the case; its message names who holds it.';

/**
 * Cases (ADR-0017): REVIEW decisions grouped by customer or supplier, for analysts to claim,
 * annotate and close. A checkpoint answered REVIEW is in the list on the very next request.
 */
@ApiTags('Cases')
@ApiSecurity('apiKey')
@Controller('v2/cases')
export class CasesController {
  constructor(private readonly cases: CasesUseCase) {}

  @SecretKeyRoute()
  @Get()
  @ApiOperation({
    summary: 'List cases',
    description:
      '`data: {cases, nextCursor, total}`. Filters combine: `status` (default `active`: open and in review), `checkpoint`, `assignee` (`me`, `none`, an e-mail), `subjectType` with `subjectId`. `order`: `recent` (default), `age`, `score`, `amount`. Pages by keyset: pass `nextCursor` as `cursor` with the same filters; it is null exactly when no case follows, so no page is empty while more remain. `total` counts every case the filters match.',
  })
  @ApiOkResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  list(@CurrentPrincipal() principal: Principal, @Query() query: CaseListQueryDto, @Req() request: FastifyRequest) {
    return this.cases.list(principal, query, String(request.id));
  }

  // Declared before ':caseId' routes of the same shape, so `next` and `bulk` are never read as ids.
  @SecretKeyRoute()
  @Post('next')
  @HttpCode(200)
  @ApiOperation({ summary: 'Claim the next case', description: 'Claims the oldest open case nobody holds (of `checkpoint` when given) for the caller: `data: {case}`, or `{case: null}` when none is left.' })
  @ApiOkResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 409, 429, 503)
  next(@CurrentPrincipal() principal: Principal, @Body() body: NextCaseDto, @Req() request: FastifyRequest) {
    return this.cases.next(principal, body, String(request.id));
  }

  @SecretKeyRoute()
  @Post('bulk')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Close or assign many cases',
    description: 'Each case at its current version, and each answers for itself: `data: {results: [{caseId, ok, error?}]}`. A case another person holds is not closed (its error names them).',
  })
  @ApiOkResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  bulk(@CurrentPrincipal() principal: Principal, @Body() body: BulkCasesDto, @Req() request: FastifyRequest) {
    return this.cases.bulk(principal, body, String(request.id));
  }

  @SecretKeyRoute()
  @Get(':caseId')
  @ApiOperation({ summary: 'Read a case', description: '`data: {case, decisions, notes, audit}`: the decisions newest first (with a payment\'s current review), the audit trail oldest first.' })
  @ApiParam(CASE_ID_PARAM)
  @ApiOkResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  read(@CurrentPrincipal() principal: Principal, @Param() path: CasePathDto, @Req() request: FastifyRequest) {
    return this.cases.read(principal, path.caseId, String(request.id));
  }

  @SecretKeyRoute()
  @Post(':caseId/claim')
  @HttpCode(200)
  @ApiOperation({ summary: 'Claim a case', description: `The caller holds the case; it is in review. ${CONFLICT}` })
  @ApiParam(CASE_ID_PARAM)
  @ApiOkResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429, 503)
  claim(@CurrentPrincipal() principal: Principal, @Param() path: CasePathDto, @Body() body: CaseVersionDto, @Req() request: FastifyRequest) {
    return this.cases.claim(principal, path.caseId, body.version, String(request.id));
  }

  @SecretKeyRoute()
  @Post(':caseId/assign')
  @HttpCode(200)
  @ApiOperation({ summary: 'Assign a case', description: `To a person by e-mail (in review), or to nobody with null (open). ${CONFLICT}` })
  @ApiParam(CASE_ID_PARAM)
  @ApiOkResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429, 503)
  assign(@CurrentPrincipal() principal: Principal, @Param() path: CasePathDto, @Body() body: AssignCaseDto, @Req() request: FastifyRequest) {
    return this.cases.assign(principal, path.caseId, body, String(request.id));
  }

  @SecretKeyRoute()
  @Post(':caseId/notes')
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a note to a case', description: '`data: {noteId, text, author, at}`; the note is in the audit trail too.' })
  @ApiParam(CASE_ID_PARAM)
  @ApiCreatedResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  note(@CurrentPrincipal() principal: Principal, @Param() path: CasePathDto, @Body() body: CaseNoteDto, @Req() request: FastifyRequest) {
    return this.cases.note(principal, path.caseId, body.text, String(request.id));
  }

  @SecretKeyRoute()
  @Post(':caseId/close')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Close a case with its outcome',
    description: `Outcome fraud, genuine or no_action. Closing applies no label: label the customer through the label API. ${CONFLICT}`,
  })
  @ApiParam(CASE_ID_PARAM)
  @ApiOkResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429, 503)
  close(@CurrentPrincipal() principal: Principal, @Param() path: CasePathDto, @Body() body: CloseCaseDto, @Req() request: FastifyRequest) {
    return this.cases.close(principal, path.caseId, body, String(request.id));
  }

  @SecretKeyRoute()
  @Post(':caseId/reopen')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reopen a closed case', description: `Open again, held by nobody, without its outcome. A 409 when the subject has another open case. ${CONFLICT}` })
  @ApiParam(CASE_ID_PARAM)
  @ApiOkResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429, 503)
  reopen(@CurrentPrincipal() principal: Principal, @Param() path: CasePathDto, @Body() body: CaseVersionDto, @Req() request: FastifyRequest) {
    return this.cases.reopen(principal, path.caseId, body.version, String(request.id));
  }
}
