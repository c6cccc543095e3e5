import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import type { Action, Checkpoint, CheckpointScoredEvent, EventTopic, EventTopicMap, MessageEnvelope, RpcTopic, RpcTopicMap } from '@ringfence/contracts';
import { type RingfenceConfig, RateLimitedError, newEventId } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { RateLimits } from '../rate-limit/rate-limits.service';

type Envelope<T> = Omit<MessageEnvelope<T>, 'eventId'>;

/** What a route hands to the intake: who sent what, about whom. */
export interface Submission<T> {
  principal: Principal;
  /** The customer or supplier whose events must stay in order (part of the partition key). */
  subjectId: string;
  payload: T;
  traceId: string;
}

/** decisions §1: what a checkpoint answers for a customer over its own limit. */
export interface RateLimitedDecision {
  action: Action;
  source: 'RATE_LIMIT';
  score: number;
}

export interface CheckpointRoute<E extends EventTopic, R extends RpcTopic, D extends EventTopic> {
  checkpoint: Checkpoint;
  ingestTopic: E;
  rpcTopic: R;
  decisionTopic: D;
  /** The checkpoint's answer, shaped around the account's default action (source RATE_LIMIT). */
  rateLimitedReply: (payload: EventTopicMap[E], decision: RateLimitedDecision) => RpcTopicMap[R]['reply'];
}

/**
 * The one path by which the gateway accepts data (architecture: every route maps to one bus
 * message). The ingest event is durable on the bus before any answer; an account over its
 * limit gets 429 after its data was accepted (decisions §1).
 */
@Injectable()
export class EventIntake {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    private readonly limits: RateLimits,
  ) {}

  /** Ingest-only routes: answer once the event is durable. */
  async ingest<E extends EventTopic>(topic: E, submission: Submission<EventTopicMap[E]>): Promise<void> {
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(submission.principal);
    await this.publish(topic, this.envelope(submission));
    if (retryAfterSeconds !== null) throw this.overLimit(retryAfterSeconds);
  }

  /**
   * Checkpoints: the payload is published for ingestion and, at the same time, sent to scoring
   * with the payload itself, so the answer reflects this request's data (read your own writes).
   */
  async checkpoint<E extends EventTopic, R extends RpcTopic, D extends EventTopic>(
    route: CheckpointRoute<E, R, D>,
    submission: Submission<EventTopicMap[E] & RpcTopicMap[R]['request']>,
  ): Promise<RpcTopicMap[R]['reply']> {
    const envelope = this.envelope(submission);
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(submission.principal);
    if (retryAfterSeconds !== null) {
      await this.publish(route.ingestTopic, envelope);
      throw this.overLimit(retryAfterSeconds);
    }
    if (await this.limits.customerIsLimited(submission.principal, submission.subjectId)) {
      await this.publish(route.ingestTopic, envelope);
      return this.rateLimitedAnswer(route, envelope, submission.principal);
    }
    return this.publishWhileAsking(route.ingestTopic, envelope, route.rpcTopic, envelope.payload);
  }

  /**
   * Ingest routes whose answer is a query over the data just sent (connect with `features`):
   * the event is published and, at the same time, the query is sent with the payload, so the
   * answer reflects this request's own links (read your own writes).
   */
  async ingestAndRequest<E extends EventTopic, R extends RpcTopic>(
    topic: E,
    submission: Submission<EventTopicMap[E]>,
    rpcTopic: R,
    request: RpcTopicMap[R]['request'],
  ): Promise<RpcTopicMap[R]['reply']> {
    const envelope = this.envelope(submission);
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(submission.principal);
    if (retryAfterSeconds !== null) {
      await this.publish(topic, envelope);
      throw this.overLimit(retryAfterSeconds);
    }
    return this.publishWhileAsking(topic, envelope, rpcTopic, request);
  }

  /** Read-only queries (the voucher check): the account's rate limit, then one request. */
  async request<R extends RpcTopic>(rpcTopic: R, submission: Submission<RpcTopicMap[R]['request']>): Promise<RpcTopicMap[R]['reply']> {
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(submission.principal);
    if (retryAfterSeconds !== null) throw this.overLimit(retryAfterSeconds);
    return this.bus.request(rpcTopic, { ...this.envelope(submission), eventId: newEventId() }, { timeoutMs: this.config.rpcTimeoutMs });
  }

  /** Publishes the event and sends the request at the same time; answers once both are done. */
  private async publishWhileAsking<E extends EventTopic, R extends RpcTopic>(
    topic: E,
    envelope: Envelope<EventTopicMap[E]>,
    rpcTopic: R,
    request: RpcTopicMap[R]['request'],
  ): Promise<RpcTopicMap[R]['reply']> {
    const [, reply] = await Promise.all([
      this.publish(topic, envelope),
      this.bus.request(rpcTopic, { ...envelope, payload: request, eventId: newEventId() }, { timeoutMs: this.config.rpcTimeoutMs }),
    ]);
    return reply;
  }

  /** Publishes any event (decision events of rate-limited answers, for one). */
  publish<E extends EventTopic>(topic: E, envelope: Envelope<EventTopicMap[E]>): Promise<void> {
    return this.bus.publish(topic, { ...envelope, eventId: newEventId() });
  }

  /** The rate-limited answer is a recommendation too: it goes on the decision feed like any other. */
  private async rateLimitedAnswer<E extends EventTopic, R extends RpcTopic, D extends EventTopic>(
    route: CheckpointRoute<E, R, D>,
    envelope: Envelope<EventTopicMap[E]>,
    principal: Principal,
  ): Promise<RpcTopicMap[R]['reply']> {
    const decision: RateLimitedDecision = { action: principal.account.settings.defaultAction ?? 'ALLOW', source: 'RATE_LIMIT', score: 0 };
    const recommendation = route.rateLimitedReply(envelope.payload, decision);
    const timestamp = (envelope.payload as { timestamp: number }).timestamp;
    const scored: CheckpointScoredEvent = { checkpoint: route.checkpoint, timestamp, recommendation: { ...recommendation }, features: {} };
    await this.publish(route.decisionTopic, { ...envelope, payload: scored as EventTopicMap[D] });
    return recommendation;
  }

  private envelope<T>({ principal, subjectId, payload, traceId }: Submission<T>): Envelope<T> {
    return { accountId: principal.account.id, environment: principal.environment, subjectId, acceptedAt: Date.now(), traceId, payload };
  }

  private overLimit(retryAfterSeconds: number): RateLimitedError {
    return new RateLimitedError(
      retryAfterSeconds,
      `the account is over its limit of ${this.config.accountRateLimitPerMinute} requests a minute; the data was accepted, no recommendation was made`,
    );
  }
}
