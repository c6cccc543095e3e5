import { Controller, Req } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { type CustomerRecommendationResponseDto, CustomerRecommendationResponseDto as ResponseDto, CustomerRequestDto, normaliseTimestamps, ScoreQueryDto } from '@ringfence/contracts';
import { CurrentPrincipal, type BodyAndQuery, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake } from '../intake/event-intake.service';
import { answered, submissionOf } from '../intake/submission';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';

@ApiTags('Customers')
@ApiSecurity('apiKey')
@Controller('v2')
export class CustomerController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyPost('customer', {
    role: 'integration',
    summary: 'Create or update a customer and get a recommendation',
    description:
      'The customer checkpoint. The data is stored (per-field, newest timestamp wins) and scored; the answer reflects the data sent in this request. `?score=true` is accepted for compatibility: this endpoint always scores.',
    body: CustomerRequestDto,
    answer: ResponseDto,
  })
  async upsert(
    @CurrentPrincipal() principal: Principal,
    @ValidBodyAndQuery(CustomerRequestDto, ScoreQueryDto) input: BodyAndQuery<CustomerRequestDto, ScoreQueryDto>,
    @Req() request: FastifyRequest,
  ): Promise<CustomerRecommendationResponseDto> {
    const { body, query } = input;
    const submission = submissionOf(principal, body.customer.customerId, normaliseTimestamps(body), request);
    return answered(await this.intake.checkpoint(CheckpointRoutes.customer, submission, { explain: query.explain }));
  }
}
