import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  BacktestRequestDto,
  BacktestResponseDto,
  RuleDto,
  RuleListResponseDto,
  RuleRequestDto,
  RuleWithVersionsResponseDto,
  ValidateRuleRequestDto,
  ValidateRuleResponseDto,
} from '@ringfence/contracts';
import { CurrentPrincipal, RequiresRole, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';
import { RequestEnded } from './request-ended.decorator';
import { RulePathDto, RuleListQueryDto } from './rule-path.dto';
import { RulesUseCase } from './rules.use-case';

const RULE_ID_PARAM = { name: 'ruleId', schema: { type: 'integer', minimum: 1 } } as const;
const SAVE_DESCRIPTION =
  'The expression is CEL over the rule context (docs/rules.md) and is type-checked before anything is saved: a syntax error, an unknown name or a non-boolean result is a 400 naming `expression` with the engine\'s message and position. Rules belong to the key\'s account and data set (`_test_`/`_live_`) and apply from the next checkpoint on.';

@ApiTags('Rules')
@ApiSecurity('apiKey')
@Controller('v2/rules')
export class RulesController {
  constructor(private readonly rules: RulesUseCase) {}

  @SecretKeyRoute()
  @RequiresRole('rule_author')
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a rule (version 1)', description: SAVE_DESCRIPTION })
  @ApiCreatedResponse({ type: RuleDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  create(@CurrentPrincipal() principal: Principal, @Body() body: RuleRequestDto, @Req() request: FastifyRequest): Promise<RuleDto> {
    return this.rules.create(principal, body, String(request.id));
  }

  @SecretKeyRoute()
  @Get()
  @ApiOperation({ summary: 'List the rules', description: 'The current version of each rule of the data set (disabled ones included), by ruleId.' })
  @ApiOkResponse({ type: RuleListResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  list(@CurrentPrincipal() principal: Principal, @Query() query: RuleListQueryDto, @Req() request: FastifyRequest): Promise<RuleListResponseDto> {
    return this.rules.list(principal, query.checkpoint, String(request.id));
  }

  @SecretKeyPost('validate', {
    role: 'rule_author',
    summary: 'Check an expression without saving it',
    description: 'Answers 200 with `valid` and, when it is not, the engine\'s errors with their 0-based positions (what the console shows as you type).',
    answer: ValidateRuleResponseDto,
  })
  validate(@CurrentPrincipal() principal: Principal, @Body() body: ValidateRuleRequestDto, @Req() request: FastifyRequest): Promise<ValidateRuleResponseDto> {
    return this.rules.validate(principal, body, String(request.id));
  }

  @SecretKeyPost('backtest', {
    role: 'rule_author',
    summary: 'Backtest rules over past decisions',
    description:
      'Evaluates the given rules (stored ones by `ruleId`, with their state, or edited by a draft carrying the `ruleId`; drafts by `expression` and `action`, as active rules) over the data set\'s decisions of the checkpoint with `from <= timestamp < to` (payload time, ms; an end not given is the data set\'s first decision, or one ms after its last), over exactly what each decision recorded, and decides each again: the other stored rules as they stood at each decision stay in force, a draft is added, a tried stored rule takes its own place. `matches` lists the decisions it changed or a tried rule triggered on, newest first (at most 200). `labelled` counts decisions whose subject is known now to be fraud (a FRAUDSTER/FRAUDULENT label, an unforgiven chargeback; REFUND_ABUSE at refunds) or genuine (GENUINE; NOT_REFUND_ABUSE at refunds). Changes nothing.',
    answer: BacktestResponseDto,
  })
  backtest(@CurrentPrincipal() principal: Principal, @Body() body: BacktestRequestDto, @Req() request: FastifyRequest, @RequestEnded() ended: AbortSignal): Promise<BacktestResponseDto> {
    return this.rules.backtest(principal, body, String(request.id), ended);
  }

  @SecretKeyRoute()
  @Get(':ruleId')
  @ApiOperation({ summary: 'Read a rule and its versions', description: '`data.rule` is the current version; `data.versions` every version, oldest first, with who saved it.' })
  @ApiParam(RULE_ID_PARAM)
  @ApiOkResponse({ type: RuleWithVersionsResponseDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  read(@CurrentPrincipal() principal: Principal, @Param() path: RulePathDto, @Req() request: FastifyRequest): Promise<RuleWithVersionsResponseDto> {
    return this.rules.read(principal, path.ruleId, String(request.id));
  }

  @SecretKeyRoute()
  @RequiresRole('rule_author')
  @Put(':ruleId')
  @ApiOperation({ summary: 'Edit a rule (a new version)', description: `Saves the fields sent as the next version; earlier versions are kept. ${SAVE_DESCRIPTION}` })
  @ApiParam(RULE_ID_PARAM)
  @ApiOkResponse({ type: RuleDto })
  @ApiErrorResponses(400, 401, 403, 404, 413, 415, 429, 503)
  update(@CurrentPrincipal() principal: Principal, @Param() path: RulePathDto, @Body() body: RuleRequestDto, @Req() request: FastifyRequest): Promise<RuleDto> {
    return this.rules.update(principal, path.ruleId, body, String(request.id));
  }

  @SecretKeyRoute()
  @RequiresRole('rule_author')
  @Delete(':ruleId')
  @ApiOperation({ summary: 'Disable a rule', description: 'Saves a new version with `state: "disabled"`: the rule is no longer evaluated; no version is erased. A PUT can enable it again.' })
  @ApiParam(RULE_ID_PARAM)
  @ApiOkResponse({ type: RuleDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  disable(@CurrentPrincipal() principal: Principal, @Param() path: RulePathDto, @Req() request: FastifyRequest): Promise<RuleDto> {
    return this.rules.disable(principal, path.ruleId, String(request.id));
  }
}
