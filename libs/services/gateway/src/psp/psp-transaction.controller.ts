import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { AcknowledgementResponseDto, PSP_CHECKPOINTS, PspTransactionRequestDto } from '@ringfence/contracts';
import { type BodyAndQuery, CurrentPrincipal, SecretKeyRoute, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { PspTransactionQueryDto } from './psp-transaction.query.dto';
import { TransactionIngestUseCase } from './transaction-ingest.use-case';

@ApiTags('Payment processor')
@ApiSecurity('apiKey')
@Controller('psp')
export class PspTransactionController {
  constructor(private readonly ingest: TransactionIngestUseCase) {}

  @SecretKeyRoute()
  @Post('transaction/async')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Ingest a transaction update, mostly asynchronously',
    description:
      'Answers 200 as soon as the update is durably enqueued (well within a 750 ms client budget). Scoring requested with `checkpoint` is recorded on the decision topics (the data-warehouse feed), not returned.',
  })
  @ApiBody({ type: PspTransactionRequestDto })
  @ApiQuery({ name: 'checkpoint', required: false, enum: PSP_CHECKPOINTS, description: 'Request a recommendation at this checkpoint.' })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  ingestAsync(
    @CurrentPrincipal() principal: Principal,
    @ValidBodyAndQuery(PspTransactionRequestDto, PspTransactionQueryDto) input: BodyAndQuery<PspTransactionRequestDto, PspTransactionQueryDto>,
    @Req() request: FastifyRequest,
  ) {
    return this.ingest.execute(principal, input.body, input.query.checkpoint, String(request.id));
  }
}
