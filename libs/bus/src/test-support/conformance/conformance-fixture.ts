import { type AccountFacts, EventTopics, type MessageEnvelope, type RpcTopicMap, RpcTopics } from '@ringfence/contracts';
import type { BusLogger } from '../../bus-logger';
import type { HandlerRetryOptions } from '../../handler-retry';
import type { MessageBus } from '../../message-bus';

/** A stand-in reply: the bus carries any JSON, and these tests only look at the marker. */
export type CheckpointReply = RpcTopicMap[typeof RpcTopics.customerCheckpoint]['reply'];

/** Both adapters expose the number of waiting requests; the suite checks it drops back to 0. */
export interface ConformanceBus extends MessageBus {
  readonly inFlightRequests: number;
}

export interface MessageBusConformanceTarget {
  /** A new, unstarted bus. All buses of one target share one broker or one event log. */
  createBus(options: { handlerRetry: HandlerRetryOptions; logger: BusLogger }): ConformanceBus;
  /** Longest wait for a delivery; a Kafka group's first join alone takes seconds on the mock. */
  deliveryTimeoutMs: number;
  /** How long a test keeps listening for duplicates after the expected deliveries arrived. */
  quietPeriodMs: number;
}

/** What each part of the suite gets: a new bus (stopped after the test), and the target, read lazily. */
export interface ConformanceFixture {
  newBus(logger?: BusLogger): ConformanceBus;
  target(): MessageBusConformanceTarget;
}

export const CUSTOMER_UPDATED = EventTopics.customerUpdated;
export const TRANSACTION_UPDATED = EventTopics.transactionUpdated;
export const CHECKPOINT = RpcTopics.customerCheckpoint;
export const ACCOUNT_FACTS: AccountFacts = { industry: 'travel', settings: { defaultAction: 'REVIEW', lookupLimitIndustry: true } };
export const FAST_RETRY: HandlerRetryOptions = { initialDelayMs: 20, maxDelayMs: 100 };

export function byEventId(messages: Array<MessageEnvelope<unknown>>): Array<MessageEnvelope<unknown>> {
  return [...messages].sort((left, right) => left.eventId.localeCompare(right.eventId));
}

export function checkpointReply(marker: string): CheckpointReply {
  return { marker } as unknown as CheckpointReply;
}
