import { Controller, Req } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  AcknowledgementResponseDto,
  PspTransactionQueryDto,
  PspTransactionRequestDto,
  PspTransactionResponseDto,
  type PspCheckpoint,
  TransactionUpdatedEvent,
  normaliseTimestamps,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { type BodyAndQuery, CurrentPrincipal, ValidBodyAndQuery, extendValidated } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake, type Submission } from '../intake/event-intake.service';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';
import { submissionOf } from '../intake/submission';

type Input = BodyAndQuery<PspTransactionRequestDto, PspTransactionQueryDto>;

/**
 * The ingest event: the validated body (its times already normalised, which must happen once)
 * with the checkpoint asked for, if any. Only `checkpoint` is validated again (the query's own
 * rule already held it to the same values); the body's objects are shared, so consumers in this
 * process take the event as validated.
 */
function transactionEvent(body: PspTransactionRequestDto, checkpoint: PspCheckpoint | undefined): TransactionUpdatedEvent {
  const event = extendValidated(TransactionUpdatedEvent, body, checkpoint ? { checkpoint } : {});
  if (!event.ok) throw new AppError('VALIDATION_FAILED', event.problems.join('; '));
  return event.value;
}

/** One customer's events stay in order; a transaction without a customer keys on itself. */
function submission(principal: Principal, payload: TransactionUpdatedEvent, request: FastifyRequest): Submission<TransactionUpdatedEvent> {
  return submissionOf(principal, payload.customer?.customerId ?? `transaction:${payload.transaction.transactionId}`, payload, request);
}

@ApiTags('Payment processor')
@ApiSecurity('apiKey')
@Controller('psp')
export class PspTransactionController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyPost('transaction', {
    role: 'integration',
    summary: 'Ingest a transaction update; with `checkpoint`, get a recommendation',
    description:
      'Updates of one transaction (authorised amount updated, captured amount incremented, …) merge into one record by `transactionId`, each field keeping its newest value. With `checkpoint` the answer carries `data` (action, rules, score, scoreId, transactionId), reflecting this update; without it, the update is only ingested and the answer has no `data`.',
    body: PspTransactionRequestDto,
    answer: PspTransactionResponseDto,
  })
  async ingest(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(PspTransactionRequestDto, PspTransactionQueryDto) input: Input, @Req() request: FastifyRequest): Promise<PspTransactionResponseDto> {
    const body = normaliseTimestamps(input.body);
    const accepted = submission(principal, transactionEvent(body, undefined), request);
    if (!input.query.checkpoint) {
      await this.intake.ingest(CheckpointRoutes.transaction.ingestTopic, accepted);
      return { status: 200, timestamp: Date.now(), message: 'transaction update accepted; no checkpoint was asked for' };
    }
    // Scoring is told the checkpoint (its rules are per checkpoint); the ingest event is kept as
    // sent, since on it `checkpoint` asks for a feed-only scoring (the /async path below).
    const data = await this.intake.checkpoint(CheckpointRoutes.transaction, accepted, {
      request: transactionEvent(body, input.query.checkpoint),
      explain: input.query.explain,
    });
    return { status: 200, timestamp: Date.now(), data };
  }

  @SecretKeyPost('transaction/async', {
    role: 'integration',
    summary: 'Ingest a transaction update, mostly asynchronously',
    description:
      'Answers 200 as soon as the update is durably enqueued (well within a 750 ms client budget). Scoring requested with `checkpoint` happens afterwards and its recommendation is published on `ringfence.decision.transaction.scored.v1` (the data-warehouse feed), not returned.',
    body: PspTransactionRequestDto,
    answer: AcknowledgementResponseDto,
  })
  async ingestAsync(@CurrentPrincipal() principal: Principal, @ValidBodyAndQuery(PspTransactionRequestDto, PspTransactionQueryDto) input: Input, @Req() request: FastifyRequest): Promise<AcknowledgementResponseDto> {
    // On the ingest event, `checkpoint` means "score this later for the feed" (the scoring service consumes it).
    const accepted = submission(principal, transactionEvent(normaliseTimestamps(input.body), input.query.checkpoint), request);
    await this.intake.ingest(CheckpointRoutes.transaction.ingestTopic, accepted);
    return { status: 200, timestamp: Date.now() };
  }
}
