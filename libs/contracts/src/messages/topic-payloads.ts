import { CustomerScoredEvent, PayoutScoredEvent, RefundScoredEvent, RegistrationScoredEvent, TransactionScoredEvent } from './checkpoint.messages';
import { CustomerUpdatedEvent } from './customer-updated.event';
import {
  ConnectLinkedEvent,
  DisputeUpdatedEvent,
  PayoutRequestedEvent,
  RefundRequestedEvent,
  RegistrationSubmittedEvent,
  SupplierUpdatedEvent,
  VoucherCreatedEvent,
  VoucherRedemptionSubmittedEvent,
} from './ingest-events';
import { LabelUpdatedEvent } from './label-updated.event';
import { RuleChangedEvent } from './rules.message';
import { ModelActivatedEvent } from './models.message';
import { LookupIndicatorsAddedEvent, LookupIndicatorsDeletedEvent } from './lookup-indicators.message';
import { type EventTopic, EventTopics } from './topics';
import { TransactionUpdatedEvent } from './transaction-updated.event';
import { ClientEventsReceivedEvent } from './devices.message';
import { PaymentReviewedEvent } from './cases.message';

type PayloadClass = abstract new (...args: never[]) => object;

/**
 * The payload class of every event topic, at run time (the typed map in topics.ts is types
 * only): the source the published JSON Schemas and topic catalogue in `docs/contracts/` are
 * generated from. `satisfies` makes a topic without a class fail to compile.
 */
export const EVENT_PAYLOAD_CLASSES = {
  [EventTopics.customerUpdated]: CustomerUpdatedEvent,
  [EventTopics.transactionUpdated]: TransactionUpdatedEvent,
  [EventTopics.customerScored]: CustomerScoredEvent,
  [EventTopics.supplierUpdated]: SupplierUpdatedEvent,
  [EventTopics.registrationSubmitted]: RegistrationSubmittedEvent,
  [EventTopics.payoutRequested]: PayoutRequestedEvent,
  [EventTopics.refundRequested]: RefundRequestedEvent,
  [EventTopics.voucherCreated]: VoucherCreatedEvent,
  [EventTopics.voucherRedemptionSubmitted]: VoucherRedemptionSubmittedEvent,
  [EventTopics.disputeUpdated]: DisputeUpdatedEvent,
  [EventTopics.connectLinked]: ConnectLinkedEvent,
  [EventTopics.registrationScored]: RegistrationScoredEvent,
  [EventTopics.payoutScored]: PayoutScoredEvent,
  [EventTopics.refundScored]: RefundScoredEvent,
  [EventTopics.voucherRedemptionScored]: CustomerScoredEvent,
  [EventTopics.transactionScored]: TransactionScoredEvent,
  [EventTopics.lookupIndicatorsAdded]: LookupIndicatorsAddedEvent,
  [EventTopics.lookupIndicatorsDeleted]: LookupIndicatorsDeletedEvent,
  [EventTopics.customerLabelUpdated]: LabelUpdatedEvent,
  [EventTopics.supplierLabelUpdated]: LabelUpdatedEvent,
  [EventTopics.ruleSaved]: RuleChangedEvent,
  [EventTopics.modelActivated]: ModelActivatedEvent,
  [EventTopics.clientEventsReceived]: ClientEventsReceivedEvent,
  [EventTopics.paymentReviewed]: PaymentReviewedEvent,
} satisfies Record<EventTopic, PayloadClass>;
