import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { EventTopics, PspDisputeRequestDto, PspDisputeResponseDto, normaliseTimestamps } from '@ringfence/contracts';
import { CurrentPrincipal, IntegrationRoute, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { EventIntake } from '../intake/event-intake.service';
import { answered, submissionOf } from '../intake/submission';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';

const DESCRIPTION =
  'The dispute is stored by `disputeId` (later updates merge by timestamp) and linked to the customer of its transaction: a dispute not WON and not at stage CHARGEBACK_REVERSED makes that customer a fraudster. Answers once the dispute is durably accepted.';

@ApiTags('Payment processor')
@ApiSecurity('apiKey')
@Controller('psp')
export class PspDisputeController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('dispute')
  @HttpCode(200)
  @ApiOperation({ summary: 'Ingest a dispute', description: DESCRIPTION })
  @ApiOkResponse({ type: PspDisputeResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  ingest(@CurrentPrincipal() principal: Principal, @Body() body: PspDisputeRequestDto, @Req() request: FastifyRequest) {
    return this.accept(principal, body, request);
  }

  @SecretKeyPost('dispute/async', {
    role: 'integration',
    summary: 'Ingest a dispute, mostly asynchronously',
    description: `${DESCRIPTION} The two paths behave the same: both answer as soon as the event is durable, and the processing happens afterwards.`,
    answer: PspDisputeResponseDto,
  })
  ingestAsync(@CurrentPrincipal() principal: Principal, @Body() body: PspDisputeRequestDto, @Req() request: FastifyRequest) {
    return this.accept(principal, body, request);
  }

  private async accept(principal: Principal, body: PspDisputeRequestDto, request: FastifyRequest): Promise<PspDisputeResponseDto> {
    const { disputeId, transactionId } = body.dispute;
    // The customer is not in the payload (it is found through the transaction): key on the transaction.
    const subjectId = transactionId ? `transaction:${transactionId}` : `dispute:${disputeId}`;
    await this.intake.ingest(EventTopics.disputeUpdated, submissionOf(principal, subjectId, normaliseTimestamps(body), request));
    return answered({ disputeId, ...(transactionId ? { transactionId } : {}) });
  }
}
