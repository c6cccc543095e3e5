import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  ConnectFeaturesResponseDto,
  ConnectQueryDto,
  ConnectRequestDto,
  ConnectResponseDto,
  EventTopics,
  RpcTopics,
  connectCustomerId,
  normaliseTimestamps,
} from '@ringfence/contracts';
import { type BodyAndQuery, CurrentPrincipal, IntegrationRoute, SecretKeyRoute, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { EventIntake, isDegraded } from '../intake/event-intake.service';
import { submissionOf } from '../intake/submission';
import { LabelsUseCase } from '../labels/labels.use-case';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';

@ApiTags('Graph')
@ApiSecurity('apiKey')
@ApiExtraModels(ConnectResponseDto, ConnectFeaturesResponseDto)
@Controller('v2')
export class ConnectController {
  constructor(
    private readonly intake: EventIntake,
    private readonly labels: LabelsUseCase,
  ) {}

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('connect')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Link entities to a customer in the graph; with `features=true`, get graph statistics',
    description:
      'A `review` sets the customer\'s PAYMENT_FRAUD label exactly as POST /v2/customer/{customerId}/labels does. Links the customer (by `customerId` or `customer`) to the payment methods, identifications, vehicles, device, custom nodes, chargeback or dispute sent, each edge with its first-seen time, and stores them. Without `features` the answer is `{status, success: "true", timestamp, clientID, customerID}` once the links are durably accepted. With `features=true` the answer includes the request\'s own links and every write answered before it; the graph is searched breadth-first from the customer up to `depth` (1–20, default 20) and the answer is the statistics of docs/api.md "The graph": node counts per kind, degree and edge statistics, `hopsToFraud`, the caps (`maxNodesHit` at 5000 visited nodes saturates every `…Count`; nodes over 5000 edges are skipped and set `maxDegreeHit`) and `tags`. "Now" for edge ages and growth is the request\'s `timestamp`. If the graph does not answer within the budget, the links are still kept and the answer is the one without `features`, with a `degraded` warning.',
  })
  @ApiBody({ type: ConnectRequestDto })
  @ApiOkResponse({ schema: { oneOf: [{ $ref: getSchemaPath(ConnectResponseDto) }, { $ref: getSchemaPath(ConnectFeaturesResponseDto) }] } })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  async connect(
    @CurrentPrincipal() principal: Principal,
    @ValidBodyAndQuery(ConnectRequestDto, ConnectQueryDto) input: BodyAndQuery<ConnectRequestDto, ConnectQueryDto>,
    @Req() request: FastifyRequest,
  ): Promise<ConnectResponseDto | ConnectFeaturesResponseDto> {
    const { body, query } = input;
    const customerId = connectCustomerId(body);
    // The review first: a review the account may not give (POTENTIALLY_…) refuses the request before anything is stored.
    if (body.review) await this.labels.applyConnectReview(principal, customerId, body.review, String(request.id));
    const submission = submissionOf(principal, customerId, normaliseTimestamps(body), request);
    if (!query.features) {
      await this.intake.ingest(EventTopics.connectLinked, submission);
      return { status: 200, success: 'true', timestamp: Date.now(), clientID: principal.account.id, customerID: customerId };
    }
    const statistics = await this.intake.ingestAndRequest(EventTopics.connectLinked, submission, RpcTopics.graphConnect, {
      customerId,
      depth: query.depth,
      nowMs: submission.payload.timestamp,
    });
    if (isDegraded(statistics)) {
      // The links are kept; only the statistics are missing, and the answer says so.
      return { status: 200, success: 'true', timestamp: Date.now(), clientID: principal.account.id, customerID: customerId, warnings: [statistics.degraded] };
    }
    return { timestamp: Date.now(), clientID: principal.account.id, customerID: customerId, ...statistics };
  }
}
