import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  ConnectFeaturesResponseDto,
  ConnectQueryDto,
  ConnectRequestDto,
  ConnectResponseDto,
  EventTopics,
  connectCustomerId,
  normaliseTimestamps,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { type BodyAndQuery, CurrentPrincipal, SecretKeyRoute, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { EventIntake } from '../intake/event-intake.service';
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
  @Post('connect')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Link entities to a customer in the graph; with `features=true`, get graph statistics',
    description:
      'A `review` sets the customer\'s PAYMENT_FRAUD label exactly as POST /v2/customer/{customerId}/labels does. Links the customer (by `customerId` or `customer`) to the payment methods, identifications, vehicles, device, custom nodes, chargeback or dispute sent, each edge with its first-seen time (decisions §4), and stores them. Without `features` the answer is `{status, success: "true", timestamp, clientID, customerID}` once the links are durably accepted. **`features=true` answers 501 in this release**: the statistics need the graph engine, which is not built yet; nothing is stored then.',
  })
  @ApiBody({ type: ConnectRequestDto })
  @ApiOkResponse({ schema: { oneOf: [{ $ref: getSchemaPath(ConnectResponseDto) }, { $ref: getSchemaPath(ConnectFeaturesResponseDto) }] } })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 501, 503)
  async connect(
    @CurrentPrincipal() principal: Principal,
    @ValidBodyAndQuery(ConnectRequestDto, ConnectQueryDto) input: BodyAndQuery<ConnectRequestDto, ConnectQueryDto>,
    @Req() request: FastifyRequest,
  ): Promise<ConnectResponseDto> {
    if (input.query.features) {
      throw new AppError('NOT_IMPLEMENTED', 'graph statistics (features=true) need the graph engine, which this release does not have yet; nothing was stored');
    }
    const { body } = input;
    const customerId = connectCustomerId(body);
    // The review first: a review the account may not give (POTENTIALLY_…) refuses the request before anything is stored.
    if (body.review) await this.labels.applyConnectReview(principal, customerId, body.review, String(request.id));
    await this.intake.ingest(EventTopics.connectLinked, {
      principal,
      subjectId: customerId,
      payload: normaliseTimestamps(body),
      traceId: String(request.id),
    });
    return { status: 200, success: 'true', timestamp: Date.now(), clientID: principal.account.id, customerID: customerId };
  }
}
