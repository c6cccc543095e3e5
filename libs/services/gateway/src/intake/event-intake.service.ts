import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import { BusRemoteError, type MessageBus } from '@ringfence/bus';
import {
  type Checkpoint,
  type CheckpointRecommendation,
  type CheckpointRpcTopic,
  type CheckpointScoredEvent,
  type DecisionSource,
  type EventTopic,
  type EventTopicMap,
  EventTopics,
  type MessageEnvelope,
  type RpcTopic,
  type RpcTopicMap,
  type UnscoredDecision,
  type WarningDto,
  warningHelpUrl,
} from '@ringfence/contracts';
import { type Logger, OutageLog, type RingfenceConfig, RateLimitedError, newEventId } from '@ringfence/platform';
import { MESSAGE_BUS, PublishBehind, RINGFENCE_CONFIG, ROOT_LOGGER } from '@ringfence/service-runtime';
import { CardCipherIntake } from '../card-ciphers/card-cipher-intake.service';
import { principalAccountFacts } from '../principal-request';
import { RateLimits } from '../rate-limit/rate-limits.service';
import { unansweredDependency } from './unanswered-dependency';

type Envelope<T> = Omit<MessageEnvelope<T>, 'eventId'>;

/** What a route hands to the intake: who sent what, about whom. */
export interface Submission<T> {
  principal: Principal;
  /** The customer or supplier whose events must stay in order (part of the partition key). */
  subjectId: string;
  payload: T;
  traceId: string;
}

/**
 * What a checkpoint answers without a score: for a customer over its own limit (source
 * RATE_LIMIT, the stricter of the customer's last answered action and REVIEW, ADR-0001), or
 * when its data was kept but scoring missed the time budget (source RINGFENCE, with a `degraded`
 * warning, the account's default action).
 */
export interface FallbackDecision extends UnscoredDecision {
  source: Extract<DecisionSource, 'RATE_LIMIT' | 'RINGFENCE'>;
}

/** How a checkpoint is asked and answered beyond its payload. */
export interface CheckpointOptions<Request> {
  /** What scoring is asked, when it is more than the payload kept (a PSP transaction's checkpoint). */
  request?: Request;
  /** `?explain=true`: the answer carries the decision's explanation. */
  explain?: boolean;
}

export interface CheckpointRoute<E extends EventTopic, R extends CheckpointRpcTopic, D extends EventTopic> {
  checkpoint: Checkpoint;
  ingestTopic: E;
  rpcTopic: R;
  decisionTopic: D;
  /** The checkpoint's answer shaped around a decision that is not a score (see `FallbackDecision`). */
  fallbackReply: (payload: EventTopicMap[E], decision: FallbackDecision) => CheckpointRecommendation<R>;
}

/**
 * The one path by which the gateway accepts data: every route maps to one bus message. The
 * ingest event is durable on the bus before any answer; an account over its limit gets 429
 * after its data was accepted.
 *
 * Read your writes: a request that reads (a checkpoint's score, connect statistics) is sent
 * only after its own event is durable, and the responders wait until the state they read has
 * handled the account's earlier events (the bus's `consistentWith`). So the answer reflects
 * this request and every write answered before it, in both modes.
 *
 * Card ciphers are opened here, before anything is published (`CardCipherIntake`, ADR-0015):
 * every route's payload, and a checkpoint's or query's request beside it, carries the reduced
 * card and never the cipher; one that cannot be read is a 400 and nothing is published.
 */
@Injectable()
export class EventIntake {
  /** One warning per outage of what the answers wait for, with a count, not one per degraded answer. */
  private readonly outages: OutageLog;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly limits: RateLimits,
    private readonly publishBehind: PublishBehind,
    private readonly cardCiphers: CardCipherIntake,
  ) {
    this.outages = new OutageLog(logger, { effect: 'answered degraded (the data kept, no recommendation made)' });
  }

  /** Ingest-only routes: answer once the event is durable. */
  async ingest<E extends EventTopic>(topic: E, submission: Submission<EventTopicMap[E]>): Promise<void> {
    await this.openCardCiphers(topic, submission);
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(submission.principal);
    await this.publish(topic, this.envelope(submission));
    if (retryAfterSeconds !== null) throw this.overLimit(retryAfterSeconds);
  }

  /**
   * Checkpoints: the payload is published, then scored. Once it is published the data is kept,
   * so a scoring that fails or misses the budget gets the degraded answer, never a 5xx; a
   * publish that fails is a 503 (nothing was accepted). Scoring replies with the decision and
   * the gateway publishes the decision it answers with, so the decision feed holds each
   * checkpoint's answer exactly once, even when scoring finishes after the answer was given.
   */
  async checkpoint<E extends EventTopic, R extends CheckpointRpcTopic, D extends EventTopic>(
    route: CheckpointRoute<E, R, D>,
    submission: Submission<EventTopicMap[E] & RpcTopicMap[R]['request']>,
    options: CheckpointOptions<RpcTopicMap[R]['request']> = {},
  ): Promise<CheckpointRecommendation<R>> {
    await this.openCardCiphers(route.ingestTopic, submission, options.request);
    const request = options.request ?? submission.payload;
    const envelope = this.envelope(submission);
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(submission.principal);
    if (retryAfterSeconds !== null) {
      await this.publish(route.ingestTopic, envelope);
      throw this.overLimit(retryAfterSeconds);
    }
    const limitedAction = await this.limits.customerLimitedAction(submission.principal, submission.subjectId);
    if (limitedAction !== null) {
      await this.publish(route.ingestTopic, envelope);
      return this.fallbackAnswer(route, envelope, { action: limitedAction, source: 'RATE_LIMIT', warnings: [] });
    }
    await this.publish(route.ingestTopic, envelope);
    const answer = await this.askKept(route.rpcTopic, submission.principal, envelope, request, 'scoring');
    if (isDegraded(answer)) {
      const defaultAction = submission.principal.account.settings.defaultAction ?? 'ALLOW';
      return this.fallbackAnswer(route, envelope, { action: defaultAction, source: 'RINGFENCE', warnings: [answer.degraded] });
    }
    this.limits.recordScoredAnswer(submission.principal, submission.subjectId, answer.recommendation.action);
    await this.publishDecision(route, envelope, answer);
    return options.explain && answer.explanation ? { ...answer.recommendation, explanation: answer.explanation } : answer.recommendation;
  }

  /**
   * Ingest routes whose answer is a query over the data just sent (connect with `features`):
   * the event is published, then the query is sent; the graph answers once its consumer has
   * handled the event, so the answer includes this request's own links. A query that fails
   * after the event was kept is a `DegradedAnswer`, for the route to answer 200 with.
   */
  async ingestAndRequest<E extends EventTopic, R extends RpcTopic>(
    topic: E,
    submission: Submission<EventTopicMap[E]>,
    rpcTopic: R,
    request: RpcTopicMap[R]['request'],
  ): Promise<RpcTopicMap[R]['reply'] | DegradedAnswer> {
    await this.openCardCiphers(topic, submission, request);
    const envelope = this.envelope(submission);
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(submission.principal);
    if (retryAfterSeconds !== null) {
      await this.publish(topic, envelope);
      throw this.overLimit(retryAfterSeconds);
    }
    await this.publish(topic, envelope);
    return this.askKept(rpcTopic, submission.principal, envelope, request, 'the graph');
  }

  /** Read-only queries (the voucher check): the account's rate limit, then one request. */
  async request<R extends RpcTopic>(rpcTopic: R, submission: Submission<RpcTopicMap[R]['request']>): Promise<RpcTopicMap[R]['reply']> {
    await this.openCardCiphers(rpcTopic, submission);
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(submission.principal);
    if (retryAfterSeconds !== null) throw this.overLimit(retryAfterSeconds);
    const envelope = this.envelope(submission);
    return this.ask(rpcTopic, submission.principal, envelope, envelope.payload);
  }

  /**
   * Asks about data already kept: a client error (4xx) still fails the request, anything else
   * (timeout, unavailable, internal) becomes a degraded answer, since a 5xx would tell the
   * client to resend data that was accepted.
   */
  private async askKept<R extends RpcTopic>(
    rpcTopic: R,
    principal: Principal,
    envelope: Envelope<unknown>,
    request: RpcTopicMap[R]['request'],
    responder: string,
  ): Promise<RpcTopicMap[R]['reply'] | DegradedAnswer> {
    try {
      const answer = await this.ask(rpcTopic, principal, envelope, request);
      this.outages.answered();
      return answer;
    } catch (error) {
      if (error instanceof BusRemoteError && error.status < 500) throw error;
      // The warning names what did not answer: the service asked, or what it waited for in vain.
      const unanswered = unansweredDependency(error, responder);
      this.outages.failed(unanswered.inLog, { topic: rpcTopic, traceId: envelope.traceId, err: error });
      return { degraded: degradedWarning(unanswered.inWarning, this.config.rpcTimeoutMs) };
    }
  }

  /** The request carries the account's facts; the event it follows does not (`withoutAccountFacts`). */
  private ask<R extends RpcTopic>(rpcTopic: R, principal: Principal, envelope: Envelope<unknown>, request: RpcTopicMap[R]['request']): Promise<RpcTopicMap[R]['reply']> {
    return this.bus.request(
      rpcTopic,
      { ...envelope, payload: request, eventId: newEventId(), account: principalAccountFacts(principal) },
      { timeoutMs: this.config.rpcTimeoutMs },
    );
  }

  /** Publishes any event (decision events of rate-limited answers, for one). */
  publish<E extends EventTopic>(topic: E, envelope: Envelope<EventTopicMap[E]>): Promise<void> {
    return this.bus.publish(topic, { ...envelope, eventId: newEventId() });
  }

  /** A fallback answer is a recommendation too: it goes on the decision feed like any other. */
  private async fallbackAnswer<E extends EventTopic, R extends CheckpointRpcTopic, D extends EventTopic>(
    route: CheckpointRoute<E, R, D>,
    envelope: Envelope<EventTopicMap[E]>,
    { action, source, warnings }: Omit<FallbackDecision, 'score'>,
  ): Promise<CheckpointRecommendation<R>> {
    const decision: FallbackDecision = { action, source, score: 0, warnings };
    const recommendation = route.fallbackReply(envelope.payload, decision);
    const timestamp = (envelope.payload as { timestamp: number }).timestamp;
    await this.publishDecision(route, envelope, { checkpoint: route.checkpoint, timestamp, recommendation, features: {} });
    return recommendation;
  }

  /**
   * The data is already kept when a decision is published, so a feed that cannot take it is no
   * 5xx. Nor is the decision dropped (ADR-0016): `PublishBehind` keeps it and tries again,
   * and sets it aside for an operator's replay when the broker keeps refusing it.
   */
  private async publishDecision<E extends EventTopic, R extends CheckpointRpcTopic, D extends EventTopic>(
    route: CheckpointRoute<E, R, D>,
    envelope: Envelope<EventTopicMap[E]>,
    decision: CheckpointScoredEvent<CheckpointRecommendation<R>>,
  ): Promise<void> {
    await this.publishBehind.publishOrKeep(route.decisionTopic, { ...envelope, eventId: newEventId(), payload: decision as EventTopicMap[D] });
  }

  /** Every card cipher of the submission (and of the request sent beside it) replaced by its card, or a 400. */
  private openCardCiphers(topic: string, { principal, payload }: Submission<unknown>, request?: unknown): Promise<void> {
    const owner = { accountId: principal.account.id, environment: principal.environment };
    return this.cardCiphers.reduce(owner, payload, topic === EventTopics.transactionUpdated, request);
  }

  private envelope<T>({ principal, subjectId, payload, traceId }: Submission<T>): Envelope<T> {
    return { accountId: principal.account.id, environment: principal.environment, subjectId, acceptedAt: Date.now(), traceId, payload };
  }

  private overLimit(retryAfterSeconds: number): RateLimitedError {
    return this.limits.accountLimited(retryAfterSeconds, 'the data was accepted, no recommendation was made');
  }
}

/** The answer to a request whose data was kept but whose query did not answer in time. */
export interface DegradedAnswer {
  degraded: WarningDto;
}

export function isDegraded(answer: object): answer is DegradedAnswer {
  return 'degraded' in answer;
}

function degradedWarning(responder: string, budgetMs: number): WarningDto {
  return {
    class: 'degraded',
    help: warningHelpUrl('degraded'),
    msg: `The data was kept, but ${responder} did not answer within ${budgetMs} ms; this answer is not based on it.`,
  };
}
