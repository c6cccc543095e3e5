import {
  ConnectLinkedEvent,
  CustomerUpdatedEvent,
  DisputeUpdatedEvent,
  type EventTopic,
  EventTopics,
  PayoutRequestedEvent,
  RefundRequestedEvent,
  RegistrationSubmittedEvent,
  SupplierUpdatedEvent,
  TransactionUpdatedEvent,
  VoucherCreatedEvent,
  VoucherRedemptionSubmittedEvent,
} from '@ringfence/contracts';
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
} from '@ringfence/entities';
import type { InputClass } from '@ringfence/service-runtime';

/** How one ingest topic becomes entity updates. */
export interface IngestRoute {
  topic: EventTopic;
  payloadClass: InputClass<object>;
  /**
   * The entities the payload describes: a pure function of the payload, reading no store (a
   * dispute records itself on its transaction, which reaches the customer: `storeEntityUpdates`).
   */
  updates(payload: never): EntityUpdate[];
}

const route = <T extends object>(topic: EventTopic, payloadClass: InputClass<T>, updates: (payload: T) => EntityUpdate[]): IngestRoute => ({
  topic,
  payloadClass,
  updates: updates as IngestRoute['updates'],
});

type Payload = Record<string, unknown>;
const fields = (payload: object) => payload as Payload;

/** Every ingest topic ingestion consumes, and the entities each one keeps (decisions §5). */
export const INGEST_ROUTES: readonly IngestRoute[] = [
  route(EventTopics.customerUpdated, CustomerUpdatedEvent, (payload) => customerPayloadUpdates(fields(payload))),
  route(EventTopics.supplierUpdated, SupplierUpdatedEvent, (payload) => supplierPayloadUpdates(fields(payload))),
  route(EventTopics.registrationSubmitted, RegistrationSubmittedEvent, (payload) =>
    registrationPayloadUpdates({ ...fields(payload), registrationId: payload.registrationId }),
  ),
  route(EventTopics.payoutRequested, PayoutRequestedEvent, (payload) => payoutPayloadUpdates(fields(payload))),
  route(EventTopics.refundRequested, RefundRequestedEvent, (payload) => refundPayloadUpdates(fields(payload))),
  route(EventTopics.voucherCreated, VoucherCreatedEvent, (payload) => voucherPayloadUpdates(fields(payload))),
  route(EventTopics.voucherRedemptionSubmitted, VoucherRedemptionSubmittedEvent, (payload) =>
    voucherRedemptionPayloadUpdates({ ...fields(payload), timestamp: payload.timestamp }),
  ),
  route(EventTopics.transactionUpdated, TransactionUpdatedEvent, (payload) => pspTransactionPayloadUpdates(fields(payload))),
  route(EventTopics.disputeUpdated, DisputeUpdatedEvent, (payload) => pspDisputePayloadUpdates(fields(payload))),
  route(EventTopics.connectLinked, ConnectLinkedEvent, (payload) => connectPayloadUpdates(fields(payload))),
];
