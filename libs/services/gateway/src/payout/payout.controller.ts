import { Controller, Req } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { PayoutRecommendationResponseDto, PayoutRequestDto, normaliseTimestamps, ExplainQueryDto } from '@ringfence/contracts';
import { CurrentPrincipal, type BodyAndQuery, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake } from '../intake/event-intake.service';
import { answered, submissionOf } from '../intake/submission';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';

@ApiTags('Suppliers')
@ApiSecurity('apiKey')
@Controller('v2')
export class PayoutController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyPost('payout', {
    role: 'integration',
    summary: 'Get a recommendation for a supplier payout',
    description:
      'The payout checkpoint: ALLOW, REVIEW or PREVENT for paying `supplier` the `payout` to `paymentMethod` (the deprecated `paymentMethods` array is still accepted). The payout, supplier and payment methods are stored; the answer reflects this request.',
    body: PayoutRequestDto,
    answer: PayoutRecommendationResponseDto,
  })
  async payout(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(PayoutRequestDto, ExplainQueryDto) input: BodyAndQuery<PayoutRequestDto, ExplainQueryDto>, @Req() request: FastifyRequest): Promise<PayoutRecommendationResponseDto> {
    const { body, query } = input;
    const submission = submissionOf(principal, body.supplier.supplierId, normaliseTimestamps(body), request);
    return answered(await this.intake.checkpoint(CheckpointRoutes.payout, submission, { explain: query.explain }));
  }
}
