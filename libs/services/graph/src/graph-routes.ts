import {
  ConnectLinkedEvent,
  CustomerUpdatedEvent,
  DisputeUpdatedEvent,
  EventTopics,
  type GraphSourceTopic,
  LabelUpdatedEvent,
  PayoutRequestedEvent,
  RefundRequestedEvent,
  RegistrationSubmittedEvent,
  SupplierUpdatedEvent,
  TransactionUpdatedEvent,
  VoucherCreatedEvent,
  VoucherRedemptionSubmittedEvent,
} from '@ringfence/contracts';
import {
  type GraphChange,
  type GraphLabelEvent,
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

type Json = Record<string, unknown>;

/** How one topic's payload (wire JSON, times in ms) becomes graph changes: a pure function of it. */
export interface GraphRoute {
  topic: GraphSourceTopic | typeof EventTopics.customerLabelUpdated;
  payloadClass: InputClass<object>;
  changes(payload: Json): GraphChange[];
}

const route = (topic: GraphRoute['topic'], payloadClass: InputClass<object>, changes: GraphRoute['changes']): GraphRoute => ({ topic, payloadClass, changes });

/**
 * Every topic the graph consumes (decisions §4: "linking from every endpoint"), and the labels
 * that mark fraudsters. The pure extractors live in @ringfence/graph-engine. None reads a store:
 * a dispute names only its transaction, and the graph itself pairs it with the transaction's
 * customer (`TenantGraph`), whichever of the two events it handles first.
 */
export const GRAPH_ROUTES: readonly GraphRoute[] = [
  route(EventTopics.customerUpdated, CustomerUpdatedEvent, customerPayloadGraphChanges),
  route(EventTopics.supplierUpdated, SupplierUpdatedEvent, supplierPayloadGraphChanges),
  route(EventTopics.registrationSubmitted, RegistrationSubmittedEvent, registrationPayloadGraphChanges),
  route(EventTopics.payoutRequested, PayoutRequestedEvent, payoutPayloadGraphChanges),
  route(EventTopics.refundRequested, RefundRequestedEvent, refundPayloadGraphChanges),
  route(EventTopics.voucherCreated, VoucherCreatedEvent, voucherPayloadGraphChanges),
  route(EventTopics.voucherRedemptionSubmitted, VoucherRedemptionSubmittedEvent, voucherRedemptionPayloadGraphChanges),
  route(EventTopics.transactionUpdated, TransactionUpdatedEvent, pspTransactionPayloadGraphChanges),
  route(EventTopics.disputeUpdated, DisputeUpdatedEvent, pspDisputePayloadGraphChanges),
  route(EventTopics.connectLinked, ConnectLinkedEvent, connectPayloadGraphChanges),
  // Validated as a LabelUpdatedEvent before it gets here.
  route(EventTopics.customerLabelUpdated, LabelUpdatedEvent, (payload) => labelGraphChanges(payload as unknown as GraphLabelEvent)),
];

const ROUTES_BY_TOPIC = new Map<string, GraphRoute>(GRAPH_ROUTES.map((graphRoute) => [graphRoute.topic, graphRoute]));

/** The route of a topic the graph reads; undefined for any other topic. */
export function graphRouteOf(topic: string): GraphRoute | undefined {
  return ROUTES_BY_TOPIC.get(topic);
}
