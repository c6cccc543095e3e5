import type { CustomerCheckpointReply, CustomerCheckpointRequest } from './customer-checkpoint.message';
import type { CustomerScoredEvent } from './customer-scored.event';
import type { CustomerUpdatedEvent } from './customer-updated.event';
import type { TransactionUpdatedEvent } from './transaction-updated.event';

/**
 * Topic names follow `ringfence.<ingest|graph|label|decision|rpc>.<entity>.<event>.v1`.
 * The ingest and decision topics are the data-warehouse feed.
 */
export const EventTopics = {
  customerUpdated: 'ringfence.ingest.customer.updated.v1',
  transactionUpdated: 'ringfence.ingest.transaction.updated.v1',
  customerScored: 'ringfence.decision.customer.scored.v1',
} as const;

export const RpcTopics = {
  customerCheckpoint: 'ringfence.rpc.scoring.customer-checkpoint.v1',
} as const;

/** Replies of every request topic come back on this topic, matched by correlation id. */
export const RPC_REPLY_TOPIC = 'ringfence.rpc.reply.v1';

export type EventTopic = (typeof EventTopics)[keyof typeof EventTopics];
export type RpcTopic = (typeof RpcTopics)[keyof typeof RpcTopics];

/** The payload every event topic carries: publishing the wrong one does not compile. */
export interface EventTopicMap {
  [EventTopics.customerUpdated]: CustomerUpdatedEvent;
  [EventTopics.transactionUpdated]: TransactionUpdatedEvent;
  [EventTopics.customerScored]: CustomerScoredEvent;
}

export interface RpcTopicMap {
  [RpcTopics.customerCheckpoint]: { request: CustomerCheckpointRequest; reply: CustomerCheckpointReply };
}

/** Every topic the service uses, for pre-creating them on a broker without CreateTopics. */
export const ALL_TOPICS: readonly string[] = [
  ...Object.values(EventTopics),
  ...Object.values(RpcTopics),
  RPC_REPLY_TOPIC,
];
