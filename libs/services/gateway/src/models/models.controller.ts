import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { MODEL_ID_PATTERN, ModelDto, ModelListQueryDto, ModelListResponseDto, ModelPathDto, TrainModelAcceptedDto, TrainModelRequestDto } from '@ringfence/contracts';
import { CurrentPrincipal, RequiresRole, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { ModelsUseCase } from './models.use-case';

const MODEL_ID_PARAM = { name: 'modelId', schema: { type: 'string', pattern: MODEL_ID_PATTERN.source }, description: 'A trained model\'s id, or `default-<checkpoint>` for the shipped default.' } as const;

@ApiTags('Models')
@ApiSecurity('apiKey')
@Controller('v2/models')
export class ModelsController {
  constructor(private readonly models: ModelsUseCase) {}

  @SecretKeyRoute()
  @RequiresRole('rule_author')
  @Post('train')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Train a model of a checkpoint',
    description:
      'Answers 202 at once with the new model\'s id; training runs off the request path (watch `GET /v2/models/:modelId`). It learns from the data set\'s decisions of the checkpoint with `from <= timestamp < to`, over the features each decision recorded, labelled with what is known now (docs/model.md, "Training examples"), holding out the latest 20 % in time for the metrics. A new model is not active until activated.',
  })
  @ApiAcceptedResponse({ type: TrainModelAcceptedDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  train(@CurrentPrincipal() principal: Principal, @Body() body: TrainModelRequestDto, @Req() request: FastifyRequest): Promise<TrainModelAcceptedDto> {
    return this.models.train(principal, body, String(request.id));
  }

  @SecretKeyRoute()
  @Get()
  @ApiOperation({
    summary: 'List the models',
    description: 'Every model of the data set, newest first, with its status, progress and metrics; then the default model shipped for each checkpoint it serves (`default-<checkpoint>`, `shipped: true`), active while no trained model of that checkpoint is.',
  })
  @ApiOkResponse({ type: ModelListResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ModelListQueryDto, @Req() request: FastifyRequest): Promise<ModelListResponseDto> {
    return this.models.list(principal, query.checkpoint, String(request.id));
  }

  @SecretKeyRoute()
  @Get(':modelId')
  @ApiOperation({ summary: 'Read a model', description: 'Its status (`training`, `ready`, `failed`), progress while training, the held-out metrics once ready, and whether it is active.' })
  @ApiParam(MODEL_ID_PARAM)
  @ApiOkResponse({ type: ModelDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  read(@CurrentPrincipal() principal: Principal, @Param() path: ModelPathDto, @Req() request: FastifyRequest): Promise<ModelDto> {
    return this.models.read(principal, path.modelId, String(request.id));
  }

  @SecretKeyRoute()
  @RequiresRole('rule_author')
  @Post(':modelId/activate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Activate a model',
    description:
      'A ready model scores its checkpoint from the next request on, in place of the one active before (or of the built-in model). `default-<checkpoint>` goes back to the shipped default: no trained model of the checkpoint stays active. 409 when it is not ready.',
  })
  @ApiParam(MODEL_ID_PARAM)
  @ApiOkResponse({ type: ModelDto })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429, 503)
  activate(@CurrentPrincipal() principal: Principal, @Param() path: ModelPathDto, @Req() request: FastifyRequest): Promise<ModelDto> {
    return this.models.activate(principal, path.modelId, String(request.id));
  }
}
