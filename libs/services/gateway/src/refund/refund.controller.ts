import { Controller, Req } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { RefundRecommendationResponseDto, RefundRequestDto, normaliseTimestamps, ExplainQueryDto } from '@ringfence/contracts';
import { CurrentPrincipal, type BodyAndQuery, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake } from '../intake/event-intake.service';
import { answered, submissionOf } from '../intake/submission';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';

@ApiTags('Orders and refunds')
@ApiSecurity('apiKey')
@Controller('v2')
export class RefundController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyPost('refund', {
    role: 'integration',
    summary: 'Get a recommendation for a refund request',
    description:
      'The refund checkpoint. The customer, the refund, the order (with its items and suppliers), the payment methods the refund goes to and the refund transactions are stored; the answer `{status, timestamp, data: {customerId, action, source, score, scoreId, rules}}` reflects this request.',
    body: RefundRequestDto,
    answer: RefundRecommendationResponseDto,
  })
  async refund(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(RefundRequestDto, ExplainQueryDto) input: BodyAndQuery<RefundRequestDto, ExplainQueryDto>, @Req() request: FastifyRequest): Promise<RefundRecommendationResponseDto> {
    const { body, query } = input;
    const submission = submissionOf(principal, body.customer.customerId, normaliseTimestamps(body), request);
    return answered(await this.intake.checkpoint(CheckpointRoutes.refund, submission, { explain: query.explain }));
  }
}
