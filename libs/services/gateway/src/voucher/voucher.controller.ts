import { Body, Controller, Req } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { type Principal, voucherCheckPolicy, voucherCheckRecommendation } from '@ringfence/accounts';
import {
  CustomerRecommendationResponseDto,
  EventTopics,
  RpcTopics,
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
import { type BodyAndQuery, CurrentPrincipal, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake } from '../intake/event-intake.service';
import { answered, submissionOf } from '../intake/submission';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';

@ApiTags('Vouchers')
@ApiSecurity('apiKey')
@Controller('v2')
export class VoucherController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyPost('voucher', {
    role: 'integration',
    summary: 'Create a voucher',
    description: 'Send one whenever a new voucher code is created. Stored by `voucherCode`; answers once durably accepted.',
    answer: VoucherResponseDto,
  })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: VoucherRequestDto, @Req() request: FastifyRequest): Promise<VoucherResponseDto> {
    // Redemptions key on the customer; a voucher's own events key on its referrer, else its code.
    const subjectId = body.voucher.referrerId ?? `voucher:${body.voucher.voucherCode}`;
    await this.intake.ingest(EventTopics.voucherCreated, submissionOf(principal, subjectId, normaliseTimestamps(body), request));
    return { status: 200, timestamp: Date.now() };
  }

  @SecretKeyPost('paymentmethod/voucher', {
    role: 'integration',
    summary: 'Redeem a voucher and get a recommendation',
    description:
      'The voucher-redemption checkpoint; the answer has the customer endpoint\'s shape. For guest checkouts send the lower-cased email address as `customerId`. A replayed identical redemption (same customer, code and redemption time) is stored, and counted, once. `?score=true` is accepted for compatibility: this endpoint always scores.',
    body: VoucherRedemptionRequestDto,
    answer: CustomerRecommendationResponseDto,
  })
  async redeem(
    @CurrentPrincipal() principal: Principal,
    @ValidBodyAndQuery(VoucherRedemptionRequestDto, VoucherRedemptionQueryDto) input: BodyAndQuery<VoucherRedemptionRequestDto, VoucherRedemptionQueryDto>,
    @Req() request: FastifyRequest,
  ): Promise<CustomerRecommendationResponseDto> {
    const { body, query } = input;
    const submission = submissionOf(principal, redeemingCustomerId(body), normaliseTimestamps(body), request);
    return answered(await this.intake.checkpoint(CheckpointRoutes.voucherRedemption, submission, { explain: query.explain }));
  }

  @SecretKeyPost('voucher/check', {
    role: 'integration',
    summary: 'Voucher-abuse recommendation',
    description:
      'Counts the successful redemptions (`success` not false) of `voucherCode` by the customers of `customerId`\'s network, the customer included, up to `depth` edges (the connect traversal and its caps), and answers `ABUSE` when the count reaches the threshold, else `OK`. `depth` and `threshold` of 0 or absent take the account\'s values for `voucherType` (`PATCH /admin/accounts/{id}/settings`, `voucherTypes`), else depth 10 and threshold 3. At the default threshold the rule is "at least 3"; for an explicit threshold the account setting `voucherThresholdComparison` (`gte`, the default, or `gt`) chooses. Nothing is stored. 403 when voucher abuse is disabled for the account.',
    answer: VoucherCheckResponseDto,
  })
  async check(@CurrentPrincipal() principal: Principal, @Body() body: VoucherCheckRequestDto, @Req() request: FastifyRequest): Promise<VoucherCheckResponseDto> {
    const { settings } = principal.account;
    if (settings.voucherAbuseEnabled === false) {
      throw new AppError('FORBIDDEN', 'voucher-abuse recommendations are disabled for this account; an administrator can enable them');
    }
    const policy = voucherCheckPolicy(settings, body);
    const question = { customerId: body.customerId, voucherCode: body.voucherCode, depth: policy.depth };
    const { uses } = await this.intake.request(RpcTopics.graphVoucherUses, submissionOf(principal, body.customerId, question, request));
    return { timestamp: Date.now(), recommendation: voucherCheckRecommendation(uses, policy) };
  }
}
