import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags, ApiBody } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { type CustomerRecommendationResponseDto, CustomerRecommendationResponseDto as ResponseDto, CustomerRequestDto, normaliseTimestamps, ScoreQueryDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute, type BodyAndQuery, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake } from '../intake/event-intake.service';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';

@ApiTags('Customers')
@ApiSecurity('apiKey')
@Controller('v2')
export class CustomerController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyRoute()
  @Post('customer')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create or update a customer and get a recommendation',
    description:
      'The customer checkpoint. The data is stored (per-field, newest timestamp wins) and scored; the answer reflects the data sent in this request. `?score=true` is accepted for compatibility: this endpoint always scores.',
  })
  @ApiBody({ type: CustomerRequestDto })
  @ApiOkResponse({ type: ResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  async upsert(
    @CurrentPrincipal() principal: Principal,
    @ValidBodyAndQuery(CustomerRequestDto, ScoreQueryDto) input: BodyAndQuery<CustomerRequestDto, ScoreQueryDto>,
    @Req() request: FastifyRequest,
  ): Promise<CustomerRecommendationResponseDto> {
    const { body, query } = input;
    const data = await this.intake.checkpoint(CheckpointRoutes.customer, {
      principal,
      subjectId: body.customer.customerId,
      payload: normaliseTimestamps(body),
      traceId: String(request.id),
    }, { explain: query.explain });
    return { status: 200, timestamp: Date.now(), data };
  }
}
