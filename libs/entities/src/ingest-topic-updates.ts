import { type EntityIngestTopic, EventTopics } from '@ringfence/contracts';
import {
  type EntityUpdate,
  connectPayloadUpdates,
  customerPayloadUpdates,
  payoutPayloadUpdates,
  pspDisputePayloadUpdates,
  pspTransactionPayloadUpdates,
  refundPayloadUpdates,
  registrationPayloadUpdates,
  supplierPayloadUpdates,
  voucherPayloadUpdates,
  voucherRedemptionPayloadUpdates,
} from './entity-updates';

/** A validated payload as wire JSON (`toWireJson`): times in epoch ms, open objects as sent. */
export type WireJson = Record<string, unknown>;

/**
 * The entities each ingest topic's payload describes, for every topic of the contracts' payload
 * table (`PAYLOAD_ROUTES`): what ingestion stores, and what scoring merges in memory to read its
 * own writes. One function per topic, shared by both, so they cannot disagree.
 */
export const ENTITY_UPDATES_BY_TOPIC = {
  [EventTopics.customerUpdated]: customerPayloadUpdates,
  [EventTopics.registrationSubmitted]: (wire) => registrationPayloadUpdates({ ...wire, registrationId: String(wire.registrationId) }),
  [EventTopics.payoutRequested]: payoutPayloadUpdates,
  [EventTopics.refundRequested]: refundPayloadUpdates,
  [EventTopics.voucherRedemptionSubmitted]: (wire) => voucherRedemptionPayloadUpdates({ ...wire, timestamp: wire.timestamp as number }),
  [EventTopics.transactionUpdated]: pspTransactionPayloadUpdates,
  [EventTopics.supplierUpdated]: supplierPayloadUpdates,
  [EventTopics.voucherCreated]: voucherPayloadUpdates,
  [EventTopics.disputeUpdated]: pspDisputePayloadUpdates,
  [EventTopics.connectLinked]: connectPayloadUpdates,
} as const satisfies Record<EntityIngestTopic, (wire: WireJson) => EntityUpdate[]>;
