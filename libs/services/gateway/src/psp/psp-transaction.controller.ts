import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  AcknowledgementResponseDto,
  PspTransactionQueryDto,
  PspTransactionRequestDto,
  PspTransactionResponseDto,
  type TransactionUpdatedEvent,
  normaliseTimestamps,
} from '@ringfence/contracts';
import { type BodyAndQuery, CurrentPrincipal, SecretKeyRoute, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake, type Submission } from '../intake/event-intake.service';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';

type Input = BodyAndQuery<PspTransactionRequestDto, PspTransactionQueryDto>;

/** One customer's events stay in order; a transaction without a customer keys on itself. */
function submission(principal: Principal, body: PspTransactionRequestDto, request: FastifyRequest): Submission<TransactionUpdatedEvent> {
  return {
    principal,
    subjectId: body.customer?.customerId ?? `transaction:${body.transaction.transactionId}`,
    payload: normaliseTimestamps(body) as TransactionUpdatedEvent,
    traceId: String(request.id),
  };
}

@ApiTags('Payment processor')
@ApiSecurity('apiKey')
@Controller('psp')
export class PspTransactionController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyRoute()
  @Post('transaction')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Ingest a transaction update; with `checkpoint`, get a recommendation',
    description:
      'Updates of one transaction (authorised amount updated, captured amount incremented, …) merge into one record by `transactionId`, each field keeping its newest value. With `checkpoint` the answer carries `data` (action, rules, score, scoreId, transactionId), reflecting this update; without it, the update is only ingested and the answer has no `data`.',
  })
  @ApiBody({ type: PspTransactionRequestDto })
  @ApiOkResponse({ type: PspTransactionResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  async ingest(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(PspTransactionRequestDto, PspTransactionQueryDto) input: Input, @Req() request: FastifyRequest): Promise<PspTransactionResponseDto> {
    const accepted = submission(principal, input.body, request);
    if (!input.query.checkpoint) {
      await this.intake.ingest(CheckpointRoutes.transaction.ingestTopic, accepted);
      return { status: 200, timestamp: Date.now(), message: 'transaction update accepted; no checkpoint was asked for' };
    }
    // Scoring is told the checkpoint (its rules are per checkpoint); the ingest event is kept as
    // sent, since on it `checkpoint` asks for a feed-only scoring (the /async path below).
    const data = await this.intake.checkpoint(CheckpointRoutes.transaction, accepted, {
      request: { ...accepted.payload, checkpoint: input.query.checkpoint },
      explain: input.query.explain,
    });
    return { status: 200, timestamp: Date.now(), data };
  }

  @SecretKeyRoute()
  @Post('transaction/async')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Ingest a transaction update, mostly asynchronously',
    description:
      'Answers 200 as soon as the update is durably enqueued (well within a 750 ms client budget). Scoring requested with `checkpoint` happens afterwards and its recommendation is published on `ringfence.decision.transaction.scored.v1` (the data-warehouse feed), not returned.',
  })
  @ApiBody({ type: PspTransactionRequestDto })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  async ingestAsync(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(PspTransactionRequestDto, PspTransactionQueryDto) input: Input, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    const accepted = submission(principal, input.body, request);
    // On the ingest event, `checkpoint` means "score this later for the feed" (the scoring service consumes it).
    accepted.payload.checkpoint = input.query.checkpoint;
    await this.intake.ingest(CheckpointRoutes.transaction.ingestTopic, accepted);
    return { status: 200, timestamp: Date.now() };
  }
}
