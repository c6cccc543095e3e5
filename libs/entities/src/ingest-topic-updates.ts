import { type EntityIngestTopic, EventTopics, type PayloadFacts, payloadFacts } from '@ringfence/contracts';
import {
  type EntityUpdate,
  connectFactsUpdates,
  customerFactsUpdates,
  payoutFactsUpdates,
  pspDisputeFactsUpdates,
  pspTransactionFactsUpdates,
  refundFactsUpdates,
  registrationFactsUpdates,
  supplierFactsUpdates,
  voucherFactsUpdates,
  voucherRedemptionFactsUpdates,
} from './entity-updates';

/** A validated payload as wire JSON (`toWireJson`): times in epoch ms, open objects as sent. */
export type WireJson = Record<string, unknown>;

/** The entities each ingest topic's payload describes, from the payload's facts. */
export const ENTITY_FACTS_UPDATES_BY_TOPIC = {
  [EventTopics.customerUpdated]: customerFactsUpdates,
  [EventTopics.registrationSubmitted]: registrationFactsUpdates,
  [EventTopics.payoutRequested]: payoutFactsUpdates,
  [EventTopics.refundRequested]: refundFactsUpdates,
  [EventTopics.voucherRedemptionSubmitted]: voucherRedemptionFactsUpdates,
  [EventTopics.transactionUpdated]: pspTransactionFactsUpdates,
  [EventTopics.supplierUpdated]: supplierFactsUpdates,
  [EventTopics.voucherCreated]: voucherFactsUpdates,
  [EventTopics.disputeUpdated]: pspDisputeFactsUpdates,
  [EventTopics.connectLinked]: connectFactsUpdates,
} as const satisfies Record<EntityIngestTopic, (facts: PayloadFacts) => EntityUpdate[]>;

const fromWire =
  (updates: (facts: PayloadFacts) => EntityUpdate[]) =>
  (wire: WireJson): EntityUpdate[] =>
    updates(payloadFacts(wire));

/**
 * The entities each ingest topic's payload describes, for every topic of the contracts' payload
 * table (`PAYLOAD_ROUTES`): what ingestion stores, and what scoring merges in memory to read its
 * own writes. One function per topic, shared by both, so they cannot disagree. Each reads the
 * payload's facts (`payloadFacts`).
 */
export const ENTITY_UPDATES_BY_TOPIC = Object.fromEntries(
  Object.entries(ENTITY_FACTS_UPDATES_BY_TOPIC).map(([topic, updates]) => [topic, fromWire(updates)]),
) as Record<EntityIngestTopic, (wire: WireJson) => EntityUpdate[]>;
