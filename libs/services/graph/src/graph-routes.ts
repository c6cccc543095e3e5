import { type EntityIngestTopic, EventTopics, LabelUpdatedEvent, PAYLOAD_ROUTE_LIST } from '@ringfence/contracts';
import {
  type GraphChange,
  type GraphLabelEvent,
  type WirePayload,
  connectPayloadGraphChanges,
  customerPayloadGraphChanges,
  labelGraphChanges,
  payoutPayloadGraphChanges,
  pspDisputePayloadGraphChanges,
  pspTransactionPayloadGraphChanges,
  refundPayloadGraphChanges,
  registrationPayloadGraphChanges,
  supplierPayloadGraphChanges,
  voucherPayloadGraphChanges,
  voucherRedemptionPayloadGraphChanges,
} from '@ringfence/graph-engine';
import type { InputClass } from '@ringfence/service-runtime';

/** How one topic's payload (wire JSON, times in ms) becomes graph changes: a pure function of it. */
export interface GraphRoute {
  topic: EntityIngestTopic | typeof EventTopics.customerLabelUpdated;
  payloadClass: InputClass<object>;
  changes(payload: WirePayload): GraphChange[];
}

/**
 * What each ingest topic of the contracts' payload table adds to the graph (ADR-0004:
 * "linking from every endpoint"). The pure extractors live in @ringfence/graph-engine. None
 * reads a store: a dispute names only its transaction, and the graph itself pairs it with the
 * transaction's customer (`TenantGraph`), whichever of the two events it handles first.
 */
const GRAPH_CHANGES_BY_TOPIC = {
  [EventTopics.customerUpdated]: customerPayloadGraphChanges,
  [EventTopics.registrationSubmitted]: registrationPayloadGraphChanges,
  [EventTopics.payoutRequested]: payoutPayloadGraphChanges,
  [EventTopics.refundRequested]: refundPayloadGraphChanges,
  [EventTopics.voucherRedemptionSubmitted]: voucherRedemptionPayloadGraphChanges,
  [EventTopics.transactionUpdated]: pspTransactionPayloadGraphChanges,
  [EventTopics.supplierUpdated]: supplierPayloadGraphChanges,
  [EventTopics.voucherCreated]: voucherPayloadGraphChanges,
  [EventTopics.disputeUpdated]: pspDisputePayloadGraphChanges,
  [EventTopics.connectLinked]: connectPayloadGraphChanges,
} as const satisfies Record<EntityIngestTopic, GraphRoute['changes']>;

/** Every topic the graph consumes: the payload table's, and the labels that mark fraudsters. */
export const GRAPH_ROUTES: readonly GraphRoute[] = [
  ...PAYLOAD_ROUTE_LIST.map((route) => ({ topic: route.ingestTopic, payloadClass: route.payloadClass, changes: GRAPH_CHANGES_BY_TOPIC[route.ingestTopic] })),
  // Validated as a LabelUpdatedEvent before it gets here.
  { topic: EventTopics.customerLabelUpdated, payloadClass: LabelUpdatedEvent, changes: (payload) => labelGraphChanges(payload as unknown as GraphLabelEvent) },
];
const ROUTES_BY_TOPIC = new Map<string, GraphRoute>(GRAPH_ROUTES.map((graphRoute) => [graphRoute.topic, graphRoute]));

/** The route of a topic the graph reads; undefined for any other topic. */
export function graphRouteOf(topic: string): GraphRoute | undefined {
  return ROUTES_BY_TOPIC.get(topic);
}
