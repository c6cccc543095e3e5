import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { CallbackDeliveriesQueryDto, CallbackDeliveriesResponseDto, LabelChangedCallbackDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { CallbacksUseCase } from './callbacks.use-case';

const DELIVERIES_DESCRIPTION = [
  "Every label change of this data set (the key's account and `_test_`/`_live_` environment) made while the account had a `callbackUrl` (`PATCH /admin/accounts/{id}/settings`) is POSTed there as `event` (`LabelChangedCallbackDto`), signed: headers `Ringfence-Timestamp` (epoch ms), `Ringfence-Signature: sha256=<hex HMAC-SHA256 of \"<timestamp>.<body>\" keyed with the callbackSecret>` and `Ringfence-Delivery-Id`.",
  'Delivery is at least once and never delays the label request: a 2xx answer ends it (`delivered`); anything else (another status, no answer within 10 s, a refused connection) is retried with exponential backoff and jitter (10 s doubling to at most 1 h) until 24 h after the change, then given up (`failed`).',
  'Each attempt is recorded here (`attempts`, oldest first: `at`, `httpStatus`, `error`, `durationMs`). Newest deliveries first; `limit` 1 to 200 (default 50); pass the last `deliveryId` of a page as `before` for the next. A delivery recorded by the label request just answered is already listed.',
].join(' ');

@ApiTags('Callbacks')
@ApiSecurity('apiKey')
@ApiExtraModels(LabelChangedCallbackDto)
@Controller('v2/callbacks')
export class CallbacksController {
  constructor(private readonly callbacks: CallbacksUseCase) {}

  @SecretKeyRoute()
  @Get('deliveries')
  @ApiOperation({ summary: 'Review callbacks: the deliveries of label changes and their attempts', description: DELIVERIES_DESCRIPTION })
  @ApiOkResponse({ type: CallbackDeliveriesResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  deliveries(@CurrentPrincipal() principal: Principal, @Query() query: CallbackDeliveriesQueryDto, @Req() request: FastifyRequest): Promise<CallbackDeliveriesResponseDto> {
    return this.callbacks.deliveries(principal, query, String(request.id));
  }
}
