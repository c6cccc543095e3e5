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
  type EntityDocumentRepository,
  type EntityRef,
  type EntityUpdate,
  connectPayloadUpdates,
  customerOfTransaction,
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

type Tenant = Pick<EntityRef, 'accountId' | 'environment'>;

/** How one ingest topic becomes entity updates. */
export interface IngestRoute {
  topic: EventTopic;
  payloadClass: InputClass<object>;
  /** The entities the payload describes; may read the store (a dispute finds its customer). */
  updates(payload: never, tenant: Tenant, documents: EntityDocumentRepository): Promise<EntityUpdate[]> | EntityUpdate[];
}

const route = <T extends object>(
  topic: EventTopic,
  payloadClass: InputClass<T>,
  updates: (payload: T, tenant: Tenant, documents: EntityDocumentRepository) => Promise<EntityUpdate[]> | EntityUpdate[],
): IngestRoute => ({ topic, payloadClass, updates: updates as IngestRoute['updates'] });

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
  route(EventTopics.disputeUpdated, DisputeUpdatedEvent, async (payload, tenant, documents) =>
    pspDisputePayloadUpdates(fields(payload), await customerOfTransaction(documents, tenant, payload.dispute.transactionId)),
  ),
  route(EventTopics.connectLinked, ConnectLinkedEvent, (payload) => connectPayloadUpdates(fields(payload))),
];
