import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  CustomerRecommendationResponseDto,
  EventTopics,
  VoucherCheckRequestDto,
  VoucherCheckResponseDto,
  VoucherRedemptionQueryDto,
  VoucherRedemptionRequestDto,
  VoucherRequestDto,
  VoucherResponseDto,
  normaliseTimestamps,
  redeemingCustomerId,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { type BodyAndQuery, CurrentPrincipal, SecretKeyRoute, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake } from '../intake/event-intake.service';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';

@ApiTags('Vouchers')
@ApiSecurity('apiKey')
@Controller('v2')
export class VoucherController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyRoute()
  @Post('voucher')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a voucher',
    description: 'Send one whenever a new voucher code is created. Stored by `voucherCode`; answers once durably accepted.',
  })
  @ApiOkResponse({ type: VoucherResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: VoucherRequestDto, @Req() request: FastifyRequest): Promise<VoucherResponseDto> {
    await this.intake.ingest(EventTopics.voucherCreated, {
      principal,
      // Redemptions key on the customer; a voucher's own events key on its referrer, else its code.
      subjectId: body.voucher.referrerId ?? `voucher:${body.voucher.voucherCode}`,
      payload: normaliseTimestamps(body),
      traceId: String(request.id),
    });
    return { status: 200, timestamp: Date.now() };
  }

  @SecretKeyRoute()
  @Post('paymentmethod/voucher')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Redeem a voucher and get a recommendation',
    description:
      'The voucher-redemption checkpoint; the answer has the customer endpoint\'s shape. For guest checkouts send the lower-cased email address as `customerId`. A replayed identical redemption (same customer, code and redemption time) is stored, and counted, once (decisions §9). `?score=true` is accepted for compatibility: this endpoint always scores.',
  })
  @ApiBody({ type: VoucherRedemptionRequestDto })
  @ApiOkResponse({ type: CustomerRecommendationResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  async redeem(
    @CurrentPrincipal() principal: Principal,
    @ValidBodyAndQuery(VoucherRedemptionRequestDto, VoucherRedemptionQueryDto) input: BodyAndQuery<VoucherRedemptionRequestDto, VoucherRedemptionQueryDto>,
    @Req() request: FastifyRequest,
  ): Promise<CustomerRecommendationResponseDto> {
    const { body } = input;
    const data = await this.intake.checkpoint(CheckpointRoutes.voucherRedemption, {
      principal,
      subjectId: redeemingCustomerId(body),
      payload: normaliseTimestamps(body),
      traceId: String(request.id),
    });
    return { status: 200, timestamp: Date.now(), data };
  }

  @SecretKeyRoute()
  @Post('voucher/check')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Voucher-abuse recommendation (not yet available)',
    description:
      'Counts successful redemptions of `voucherCode` by the customers in `customerId`\'s network up to `depth` and answers ABUSE when the count reaches the threshold (decisions §4). The request is validated and the account switch honoured (403 when voucher abuse is disabled for the account), but this release answers **501**: the count needs the graph engine, which is not built yet.',
  })
  @ApiOkResponse({ type: VoucherCheckResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 501)
  check(@CurrentPrincipal() principal: Principal, @Body() _body: VoucherCheckRequestDto): VoucherCheckResponseDto {
    if (principal.account.settings.voucherAbuseEnabled === false) {
      throw new AppError('FORBIDDEN', 'voucher-abuse recommendations are disabled for this account; an administrator can enable them');
    }
    throw new AppError('NOT_IMPLEMENTED', 'the voucher check needs the graph engine, which this release does not have yet; nothing was stored');
  }
}
