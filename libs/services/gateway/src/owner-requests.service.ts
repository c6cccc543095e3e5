import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import type { RpcTopic, RpcTopicMap } from '@ringfence/contracts';
import type { RingfenceConfig } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { principalRequest } from './principal-request';
import { RateLimits } from './rate-limit/rate-limits.service';

/**
 * A route's one request to the service that owns what it manages (scoring's rules and models,
 * labelling's labels),
 * for the key's account and data set, counted against the account's rate limit like every
 * route: over the limit nothing is asked.
 */
@Injectable()
export class OwnerRequests {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    private readonly limits: RateLimits,
  ) {}

  /**
   * `subjectId` keys the request on the bus (one partition per account's kind of request);
   * `ended`, when the route has one, tells the owner that the client went away (RequestOptions.signal).
   */
  async ask<R extends RpcTopic>(principal: Principal, traceId: string, subjectId: string, topic: R, payload: RpcTopicMap[R]['request'], ended?: AbortSignal): Promise<RpcTopicMap[R]['reply']> {
    await this.limits.refuseWhenAccountLimited(principal);
    return this.send(principal, traceId, subjectId, topic, payload, ended);
  }

  /** The request without the rate limit's check: for data that is applied whatever the limit (a label, ADR-0001). */
  send<R extends RpcTopic>(principal: Principal, traceId: string, subjectId: string, topic: R, payload: RpcTopicMap[R]['request'], ended?: AbortSignal): Promise<RpcTopicMap[R]['reply']> {
    return this.bus.request(topic, principalRequest(principal, traceId, subjectId, payload), { timeoutMs: this.config.requestTimeoutMs, ...(ended === undefined ? {} : { signal: ended }) });
  }
}
