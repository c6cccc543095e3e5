import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { DecisionPathDto } from './rule-path.dto';
import { RulesUseCase } from './rules.use-case';

@ApiTags('Decisions')
@ApiSecurity('apiKey')
@Controller('v2/decisions')
export class DecisionsController {
  constructor(private readonly rules: RulesUseCase) {}

  @SecretKeyRoute()
  @Get(':scoreId')
  @ApiOperation({
    summary: 'Read a decision by its scoreId',
    description:
      'The decision event as published on its decision topic (decisions §12): `recommendation` (the answer given), `features`, `rules` (evaluated, triggered, failed), `context` (what the rules read), `signals` (the other sources\' verdicts) and `subject`. Readable from the moment the checkpoint was answered. 404 for a scoreId of another data set or none.',
  })
  @ApiParam({ name: 'scoreId', schema: { type: 'string', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH } })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'integer' }, timestamp: { type: 'integer' }, data: { type: 'object', additionalProperties: true } } } })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  read(@CurrentPrincipal() principal: Principal, @Param() path: DecisionPathDto, @Req() request: FastifyRequest) {
    return this.rules.decision(principal, path.scoreId, String(request.id));
  }
}
