import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags, ApiBody } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { PayoutRecommendationResponseDto, PayoutRequestDto, normaliseTimestamps, ExplainQueryDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute, type BodyAndQuery, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake } from '../intake/event-intake.service';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';

@ApiTags('Suppliers')
@ApiSecurity('apiKey')
@Controller('v2')
export class PayoutController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyRoute()
  @Post('payout')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Get a recommendation for a supplier payout',
    description:
      'The payout checkpoint: ALLOW, REVIEW or PREVENT for paying `supplier` the `payout` to `paymentMethod` (the deprecated `paymentMethods` array is still accepted). The payout, supplier and payment methods are stored; the answer reflects this request.',
  })
  @ApiBody({ type: PayoutRequestDto })
  @ApiOkResponse({ type: PayoutRecommendationResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  async payout(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(PayoutRequestDto, ExplainQueryDto) input: BodyAndQuery<PayoutRequestDto, ExplainQueryDto>, @Req() request: FastifyRequest): Promise<PayoutRecommendationResponseDto> {
    const { body, query } = input;
    const data = await this.intake.checkpoint(CheckpointRoutes.payout, {
      principal,
      subjectId: body.supplier.supplierId,
      payload: normaliseTimestamps(body),
      traceId: String(request.id),
    }, { explain: query.explain });
    return { status: 200, timestamp: Date.now(), data };
  }
}
