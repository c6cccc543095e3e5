import { Body, Controller, Delete, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  AcknowledgementResponseDto,
  CustomerRecommendationResponseDto,
  CustomerRequestDto,
  CustomerTagsDeleteQueryDto,
  CustomerTagsRequestDto,
  type CustomerUpdatedEvent,
  EventTopics,
  LegacyChargebackRequestDto,
  LegacyCheckoutRequestDto,
  LegacyLoginRequestDto,
  LegacyOrderRequestDto,
  LegacyScoreQueryDto,
  LegacyTransactionQueryDto,
  LegacyTransactionRequestDto,
  MAX_IDENTIFIER_LENGTH,
  type PspCheckpoint,
  PspDisputeRequestDto,
  PspTransactionResponseDto,
  TagCustomerDeleteQueryDto,
  TagCustomerRequestDto,
  type TransactionUpdatedEvent,
  normaliseTimestamps,
} from '@ringfence/contracts';
import { type BodyAndQuery, CurrentPrincipal, IntegrationRoute, SecretKeyRoute, ValidBodyAndQuery } from '@ringfence/service-runtime';
import { normaliseTimestampToMillis } from '@ringfence/platform';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake } from '../intake/event-intake.service';
import { submissionOf } from '../intake/submission';
import { CustomerLabelPathDto } from '../labels/label-path.dto';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import {
  chargebackConnectEvent,
  checkoutTransactionEvent,
  loginCustomerEvent,
  orderCustomerEvent,
  removedTagMap,
  tagMapOf,
  tagsCustomerEvent,
  transactionEvent,
  transactionSubjectId,
} from './legacy-v2-payloads';

const MAPPING = 'One of the original service’s other v2 paths, accepted so an integration moves by changing its base URL (docs/api.md, "Other v2 paths of the original service").';
const BACKFILL =
  'A backfill is historic data: stored, linked in the graph and counted by velocity at its own `timestamp` (event time), exactly as the live path would, but never scored (no decision, no callback, `score`/`checkpoint` are not read). Answers `{status, timestamp}` once the event is durable.';
const ERRORS = [400, 401, 403, 413, 415, 429, 503] as const;
const IDENTIFIER_PARAM = {
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH },
  description: `Percent-encode it in the path; 1 to ${MAX_IDENTIFIER_LENGTH} characters once decoded.`,
} as const;

type Scored<Body> = BodyAndQuery<Body, LegacyScoreQueryDto>;
type Paid<Body> = BodyAndQuery<Body, LegacyTransactionQueryDto>;

/** What an ingest-only path answers (as /v2/voucher and the PSP /async paths do). */
const acknowledged = (): AcknowledgementResponseDto => ({ status: 200, timestamp: Date.now() });

/**
 * POST /v2/order, /v2/checkout, /v2/login, /v2/transaction, /v2/chargeback, the customer tags
 * and /v2/backfill/*: each body is validated as its DTO, mapped onto the payload of an existing
 * route (`legacy-v2-payloads.ts`) and handed to the same intake, so the data lands in the same
 * entities, graph and velocity as the specification's paths.
 */
@ApiTags('Other v2 paths (original service)')
@ApiSecurity('apiKey')
@Controller('v2')
export class LegacyV2Controller {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('order')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send an order of a customer',
    description: `${MAPPING} A customer event (\`ringfence.ingest.customer.updated.v1\`) with the order: the order is stored by \`orderId\` with its customer, the customer and device as on POST /v2/customer, and the graph links the order's e-mail, phone and suppliers to the customer. Answers \`{status, timestamp}\`; with \`?score=true\`, the customer checkpoint's recommendation (as POST /v2/customer).`,
  })
  @ApiBody({ type: LegacyOrderRequestDto })
  @ApiOkResponse({ type: CustomerRecommendationResponseDto, description: '`{status, timestamp}`, and `data` (the customer recommendation) with `?score=true`.' })
  @ApiErrorResponses(...ERRORS)
  order(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(LegacyOrderRequestDto, LegacyScoreQueryDto) input: Scored<LegacyOrderRequestDto>, @Req() request: FastifyRequest) {
    return this.customerEvent(principal, orderCustomerEvent(normaliseTimestamps(input.body)), input.query, request);
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a login of a customer',
    description: `${MAPPING} A customer event (\`ringfence.ingest.customer.updated.v1\`): the customer and the device it logged in from, linked in the graph and counted by velocity (distinct devices and IP addresses per customer, customers per device and IP). The username and authentication mechanism are not stored. The specification has no login checkpoint: answers \`{status, timestamp}\`; with \`?score=true\`, the customer checkpoint's recommendation (as POST /v2/customer).`,
  })
  @ApiBody({ type: LegacyLoginRequestDto })
  @ApiOkResponse({ type: CustomerRecommendationResponseDto, description: '`{status, timestamp}`, and `data` (the customer recommendation) with `?score=true`.' })
  @ApiErrorResponses(...ERRORS)
  login(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(LegacyLoginRequestDto, LegacyScoreQueryDto) input: Scored<LegacyLoginRequestDto>, @Req() request: FastifyRequest) {
    return this.customerEvent(principal, loginCustomerEvent(normaliseTimestamps(input.body)), input.query, request);
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('checkout')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a checkout (customer, order, payment method, transaction)',
    description: `${MAPPING} A PSP transaction update (\`ringfence.ingest.transaction.updated.v1\`) with its order: stored, linked and counted exactly as POST /psp/transaction, the order stored by \`orderId\` with the customer. \`?score=true\` answers the transaction checkpoint before authorisation (\`pspBeforeAuth\`), \`?checkpoint=\` names one; otherwise \`{status, timestamp}\`.`,
  })
  @ApiBody({ type: LegacyCheckoutRequestDto })
  @ApiOkResponse({ type: PspTransactionResponseDto })
  @ApiErrorResponses(...ERRORS)
  checkout(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(LegacyCheckoutRequestDto, LegacyTransactionQueryDto) input: Paid<LegacyCheckoutRequestDto>, @Req() request: FastifyRequest) {
    return this.paymentEvent(principal, checkoutTransactionEvent(normaliseTimestamps(input.body)), input.query, 'pspBeforeAuth', request);
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('transaction')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a transaction (payment attempt) of a customer',
    description: `${MAPPING} A PSP transaction update (\`ringfence.ingest.transaction.updated.v1\`): the body is POST /psp/transaction's, plus the original service's top-level \`customerId\` (the customer) and \`orderId\` (the order paid for). \`?score=true\` answers the transaction checkpoint after authorisation (\`pspAfterAuth\`), \`?checkpoint=\` names one; otherwise \`{status, timestamp}\`.`,
  })
  @ApiBody({ type: LegacyTransactionRequestDto })
  @ApiOkResponse({ type: PspTransactionResponseDto })
  @ApiErrorResponses(...ERRORS)
  transaction(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(LegacyTransactionRequestDto, LegacyTransactionQueryDto) input: Paid<LegacyTransactionRequestDto>, @Req() request: FastifyRequest) {
    return this.paymentEvent(principal, transactionEvent(normaliseTimestamps(input.body)), input.query, 'pspAfterAuth', request);
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('chargeback')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a chargeback of a customer',
    description: `${MAPPING} A connect link (\`ringfence.ingest.connect.linked.v1\`) of the chargeback to \`customerId\`: stored as a dispute, a chargeback node of the graph, and it makes the customer a fraudster (connect's \`hopsToFraud\`, \`source: CHARGEBACK\` at checkpoints) unless \`nonFraud: true\` (ADR-0004). A chargeback known only by its transaction is a PSP dispute (POST /psp/dispute).`,
  })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async chargeback(@CurrentPrincipal() principal: Principal, @Body() body: LegacyChargebackRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestChargeback(principal, body, request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('customer/:customerId/tags')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set tags on a customer',
    description: `${MAPPING} A customer event (\`ringfence.ingest.customer.updated.v1\`) whose customer carries these \`tags\`, exactly as a customer object's \`tags\` (per tag, the newest \`timestamp\` wins; default: now). Tags show on GET /v2/customer/{customerId} and in connect's \`tags\`. Answers \`{status, timestamp}\`.`,
  })
  @ApiParam({ name: 'customerId', ...IDENTIFIER_PARAM })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async setTags(@CurrentPrincipal() principal: Principal, @Param() path: CustomerLabelPathDto, @Body() body: CustomerTagsRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestTags(principal, path.customerId, tagMapOf(body), body.timestamp, request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Delete('customer/:customerId/tags')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Remove tags from a customer',
    description: `${MAPPING} Sets each \`tagName\` false on the customer, now (a customer event, as POST with \`tags: {name: false}\`). Answers \`{status, timestamp}\`, also for tags the customer did not have.`,
  })
  @ApiParam({ name: 'customerId', ...IDENTIFIER_PARAM })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  async removeTags(@CurrentPrincipal() principal: Principal, @Param() path: CustomerLabelPathDto, @Query() query: CustomerTagsDeleteQueryDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestTags(principal, path.customerId, removedTagMap(query.tagName), undefined, request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('tag/customer')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set tags on a customer (the original service’s tag path)',
    description: `${MAPPING} The same as POST /v2/customer/{customerId}/tags, the customer named by \`customerId\` in the body.`,
  })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async setTagsByBody(@CurrentPrincipal() principal: Principal, @Body() body: TagCustomerRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestTags(principal, body.customerId, tagMapOf(body), body.timestamp, request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Delete('tag/customer')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Remove tags from a customer (the original service’s tag path)',
    description: `${MAPPING} The same as DELETE /v2/customer/{customerId}/tags, the customer named by the \`customerId\` query parameter.`,
  })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  async removeTagsByQuery(@CurrentPrincipal() principal: Principal, @Query() query: TagCustomerDeleteQueryDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestTags(principal, query.customerId, removedTagMap(query.tagName), undefined, request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('backfill/customer')
  @HttpCode(200)
  @ApiOperation({ summary: 'Backfill a customer', description: `The body of POST /v2/customer. ${BACKFILL}` })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async backfillCustomer(@CurrentPrincipal() principal: Principal, @Body() body: CustomerRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    const event = normaliseTimestamps(body) as CustomerUpdatedEvent;
    await this.intake.ingest(CheckpointRoutes.customer.ingestTopic, submissionOf(principal, event.customer.customerId, event, request));
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('backfill/order')
  @HttpCode(200)
  @ApiOperation({ summary: 'Backfill an order', description: `The body of POST /v2/order. ${BACKFILL}` })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async backfillOrder(@CurrentPrincipal() principal: Principal, @Body() body: LegacyOrderRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestCustomerEvent(principal, orderCustomerEvent(normaliseTimestamps(body)), request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('backfill/login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Backfill a login', description: `The body of POST /v2/login. ${BACKFILL}` })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async backfillLogin(@CurrentPrincipal() principal: Principal, @Body() body: LegacyLoginRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestCustomerEvent(principal, loginCustomerEvent(normaliseTimestamps(body)), request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('backfill/checkout')
  @HttpCode(200)
  @ApiOperation({ summary: 'Backfill a checkout', description: `The body of POST /v2/checkout. ${BACKFILL}` })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async backfillCheckout(@CurrentPrincipal() principal: Principal, @Body() body: LegacyCheckoutRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestPaymentEvent(principal, checkoutTransactionEvent(normaliseTimestamps(body)), request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('backfill/transaction')
  @HttpCode(200)
  @ApiOperation({ summary: 'Backfill a transaction', description: `The body of POST /v2/transaction (a POST /psp/transaction body is one too). ${BACKFILL}` })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async backfillTransaction(@CurrentPrincipal() principal: Principal, @Body() body: LegacyTransactionRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestPaymentEvent(principal, transactionEvent(normaliseTimestamps(body)), request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('backfill/chargeback')
  @HttpCode(200)
  @ApiOperation({ summary: 'Backfill a chargeback of a customer', description: `The body of POST /v2/chargeback. ${BACKFILL}` })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async backfillChargeback(@CurrentPrincipal() principal: Principal, @Body() body: LegacyChargebackRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    await this.ingestChargeback(principal, body, request);
    return acknowledged();
  }

  @SecretKeyRoute()
  @IntegrationRoute()
  @Post('backfill/dispute')
  @HttpCode(200)
  @ApiOperation({ summary: 'Backfill a dispute of a transaction', description: `The body of POST /psp/dispute: the dispute reaches the customer of its transaction. ${BACKFILL}` })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(...ERRORS)
  async backfillDispute(@CurrentPrincipal() principal: Principal, @Body() body: PspDisputeRequestDto, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    const { disputeId, transactionId } = body.dispute;
    // As /psp/dispute keys it: the customer is found through the transaction.
    const subjectId = transactionId ? `transaction:${transactionId}` : `dispute:${disputeId}`;
    await this.intake.ingest(EventTopics.disputeUpdated, submissionOf(principal, subjectId, normaliseTimestamps(body), request));
    return acknowledged();
  }

  /** A customer event: kept, and with `?score=true` answered by the customer checkpoint. */
  private async customerEvent(principal: Principal, event: CustomerUpdatedEvent, query: LegacyScoreQueryDto, request: FastifyRequest): Promise<CustomerRecommendationResponseDto | AcknowledgementResponseDto> {
    if (!query.score) {
      await this.ingestCustomerEvent(principal, event, request);
      return acknowledged();
    }
    const data = await this.intake.checkpoint(CheckpointRoutes.customer, submissionOf(principal, event.customer.customerId, event, request), { explain: query.explain });
    return { status: 200, timestamp: Date.now(), data };
  }

  /** A payment event: kept, and with `?score=true` or `?checkpoint=` answered by the transaction checkpoint. */
  private async paymentEvent(
    principal: Principal,
    event: TransactionUpdatedEvent,
    query: LegacyTransactionQueryDto,
    scoredAt: PspCheckpoint,
    request: FastifyRequest,
  ): Promise<PspTransactionResponseDto | AcknowledgementResponseDto> {
    const checkpoint = query.checkpoint ?? (query.score ? scoredAt : undefined);
    if (checkpoint === undefined) {
      await this.ingestPaymentEvent(principal, event, request);
      return acknowledged();
    }
    // As /psp/transaction: scoring is told the checkpoint; the ingest event is kept as sent.
    const accepted = submissionOf(principal, transactionSubjectId(event), event, request);
    const data = await this.intake.checkpoint(CheckpointRoutes.transaction, accepted, { request: { ...event, checkpoint }, explain: query.explain });
    return { status: 200, timestamp: Date.now(), data };
  }

  private ingestCustomerEvent(principal: Principal, event: CustomerUpdatedEvent, request: FastifyRequest): Promise<void> {
    return this.intake.ingest(CheckpointRoutes.customer.ingestTopic, submissionOf(principal, event.customer.customerId, event, request));
  }

  private ingestPaymentEvent(principal: Principal, event: TransactionUpdatedEvent, request: FastifyRequest): Promise<void> {
    return this.intake.ingest(CheckpointRoutes.transaction.ingestTopic, submissionOf(principal, transactionSubjectId(event), event, request));
  }

  private ingestChargeback(principal: Principal, body: LegacyChargebackRequestDto, request: FastifyRequest): Promise<void> {
    const event = chargebackConnectEvent(normaliseTimestamps(body));
    return this.intake.ingest(EventTopics.connectLinked, submissionOf(principal, body.customerId, event, request));
  }

  private ingestTags(principal: Principal, customerId: string, tags: Record<string, boolean>, timestamp: number | undefined, request: FastifyRequest): Promise<void> {
    // The body's time is normalised here: the tags body has no nested DTO to walk.
    const timestampMs = timestamp === undefined ? Date.now() : normaliseTimestampToMillis(timestamp);
    return this.ingestCustomerEvent(principal, tagsCustomerEvent(customerId, tags, timestampMs), request);
  }
}
