import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import {
  type AddLookupIndicatorsRequest,
  LOOKUP_BODY_INDICATORS,
  LOOKUP_QUERY_INDICATORS,
  LOOKUP_SUBJECT_ID,
  type LookupAddRequestDto,
  type LookupAddResponseDto,
  type LookupDeleteQueryDto,
  type LookupDeleteResponseDto,
  type LookupIndicatorQueryDto,
  type LookupReadQueryDto,
  type LookupReadResponseDto,
  type MessageEnvelope,
  RpcTopics,
} from '@ringfence/contracts';
import { AppError, type RingfenceConfig, normaliseTimestampToMillis } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { principalRequest } from '../principal-request';
import { RateLimits } from '../rate-limit/rate-limits.service';

const millis = (time: number | undefined) => (time === undefined ? undefined : normaliseTimestampToMillis(time));

/**
 * The POST body as it travels to the lookup service: every time in epoch milliseconds. The
 * specification documents the lookup POST's `timestamp` in seconds; like every time of the API
 * it is read by magnitude, so seconds (and ms, ns) all work.
 */
export function toAddLookupIndicatorsRequest(body: LookupAddRequestDto): AddLookupIndicatorsRequest {
  const { email, telephone, ipAddress, paymentMethod, chargebacks, manualReviews } = body;
  return {
    ...body,
    timestamp: normaliseTimestampToMillis(body.timestamp),
    email: email && { ...email, timestamp: millis(email.timestamp) },
    telephone: telephone && { ...telephone, timestamp: millis(telephone.timestamp) },
    ipAddress: ipAddress && { ...ipAddress, timestamp: millis(ipAddress.timestamp) },
    paymentMethod: paymentMethod && { ...paymentMethod, timestamp: millis(paymentMethod.timestamp) },
    chargebacks: chargebacks?.map((chargeback) => ({ ...chargeback, disputeTime: millis(chargeback.disputeTime) })),
    manualReviews: manualReviews?.map((review) => ({ ...review, timestamp: millis(review.timestamp) })),
  };
}

/** Only the indicator parameters of a GET or DELETE query. */
function indicatorsOf(query: LookupIndicatorQueryDto): LookupIndicatorQueryDto {
  const indicators = Object.fromEntries(
    LOOKUP_QUERY_INDICATORS.flatMap((name) => (query[name] === undefined ? [] : [[name, query[name]]])),
  ) as LookupIndicatorQueryDto;
  if (Object.keys(indicators).length === 0) {
    throw new AppError('VALIDATION_FAILED', `query: must name at least one of ${LOOKUP_QUERY_INDICATORS.join(', ')}`);
  }
  return indicators;
}

/**
 * The /v2/lookup routes: each is one request to the lookup service, which normalises the
 * indicators, stores or reads them, and (for additions and deletions) feeds the warehouse.
 * An account over its rate limit still has a valid POST recorded and is then answered 429
 * (ADR-0001); a GET or DELETE over the limit is answered 429 without doing anything.
 */
@Injectable()
export class LookupUseCase {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    private readonly limits: RateLimits,
  ) {}

  async add(principal: Principal, body: LookupAddRequestDto, traceId: string): Promise<LookupAddResponseDto> {
    if (!LOOKUP_BODY_INDICATORS.some((name) => body[name] !== undefined)) {
      throw new AppError('VALIDATION_FAILED', `body: must name at least one of ${LOOKUP_BODY_INDICATORS.join(', ')}`);
    }
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(principal);
    const data = await this.bus.request(
      RpcTopics.addLookupIndicators,
      this.envelope(principal, traceId, toAddLookupIndicatorsRequest(body)),
      { timeoutMs: this.config.requestTimeoutMs },
    );
    if (retryAfterSeconds !== null) {
      throw this.limits.accountLimited(retryAfterSeconds, 'the indicators were recorded');
    }
    return { status: 200, timestamp: Date.now(), data };
  }

  async read(principal: Principal, query: LookupReadQueryDto, traceId: string): Promise<LookupReadResponseDto> {
    const indicators = indicatorsOf(query);
    await this.limits.refuseWhenAccountLimited(principal);
    const data = await this.bus.request(
      RpcTopics.readLookupIndicators,
      this.envelope(principal, traceId, {
        indicators,
        ipFromTime: query.ipFromTime === undefined ? undefined : normaliseTimestampToMillis(Number(query.ipFromTime)),
        limitIndustry: query.limitIndustry === 'true',
      }),
      { timeoutMs: this.config.requestTimeoutMs },
    );
    return { status: 200, timestamp: Date.now(), data };
  }

  async delete(principal: Principal, query: LookupDeleteQueryDto, traceId: string): Promise<LookupDeleteResponseDto> {
    const indicators = indicatorsOf(query);
    await this.limits.refuseWhenAccountLimited(principal);
    const data = await this.bus.request(RpcTopics.deleteLookupIndicators, this.envelope(principal, traceId, { indicators }), {
      timeoutMs: this.config.requestTimeoutMs,
    });
    return { status: 200, timestamp: Date.now(), data };
  }

  private envelope<T>(principal: Principal, traceId: string, payload: T): MessageEnvelope<T> {
    return principalRequest(principal, traceId, LOOKUP_SUBJECT_ID, payload);
  }
}
