import type { CustomerCheckpointReply, CustomerCheckpointRequest } from './customer-checkpoint.message';
import type { CustomerUpdatedEvent } from './customer-updated.event';
import type { TransactionUpdatedEvent } from './transaction-updated.event';
import type { ClientEventsReceivedEvent, ReadDeviceReply, ReadDeviceRequest } from './devices.message';
import type {
  CheckpointScoredEvent,
  CustomerScoredEvent,
  PayoutCheckpointReply,
  PayoutScoredEvent,
  RefundCheckpointReply,
  RefundScoredEvent,
  RegistrationCheckpointReply,
  RegistrationScoredEvent,
  TransactionCheckpointReply,
  TransactionScoredEvent,
  VoucherRedemptionCheckpointReply,
} from './checkpoint.messages';
import type {
  ConnectLinkedEvent,
  DisputeUpdatedEvent,
  PayoutRequestedEvent,
  RefundRequestedEvent,
  RegistrationSubmittedEvent,
  SupplierUpdatedEvent,
  VoucherCreatedEvent,
  VoucherRedemptionSubmittedEvent,
} from './ingest-events';
import type {
  AddLookupIndicatorsReply,
  AddLookupIndicatorsRequest,
  DeleteLookupIndicatorsReply,
  DeleteLookupIndicatorsRequest,
  LookupIndicatorsAddedEvent,
  LookupIndicatorsDeletedEvent,
  ReadLookupIndicatorsReply,
  ReadLookupIndicatorsRequest,
} from './lookup-indicators.message';
import type {
  CheckpointEvidenceReply,
  CheckpointEvidenceRequest,
  ReadCurrentLabelsReply,
  ReadCurrentLabelsRequest,
  ReadEntityDocumentsReply,
  ReadEntityDocumentsRequest,
} from './owner-queries.message';
import type { ApplyLabelReply, ApplyLabelRequest, ReadLabelsReply, ReadLabelsRequest } from './labelling.message';
import type { LabelUpdatedEvent } from './label-updated.event';
import type {
  BulkCasesReply,
  BulkCasesRequest,
  CaseActionReply,
  CaseActionRequest,
  ListCasesReply,
  ListCasesRequest,
  NextCaseReply,
  NextCaseRequest,
  PaymentReviewMessage,
  PaymentReviewedEvent,
  ReadCaseReply,
  ReadCaseRequest,
  ReviewPaymentRequest,
  WithdrawPaymentReviewRequest,
} from './cases.message';
import type { ReadAccountFactsReply, ReadAccountFactsRequest } from './account-facts';
import type { CallbackTargetReply, CallbackTargetRequest, ReadCallbackDeliveriesReply, ReadCallbackDeliveriesRequest } from './callback-deliveries.message';
import type { ReadDecisionsReply, ReadDecisionsRequest } from './decision-list.message';
import type {
  BacktestRulesReply,
  BacktestRulesRequest,
  DisableRuleRequest,
  ReadDecisionReply,
  ReadDecisionRequest,
  ReadRuleReply,
  ReadRuleRequest,
  ReadRulesReply,
  ReadRulesRequest,
  RuleChangedEvent,
  SaveRuleReply,
  SaveRuleRequest,
  ValidateRuleReply,
  ValidateRuleRequest,
} from './rules.message';
import type { ModelActivatedEvent, ModelReply, ModelRequest, ModelsReply, ReadModelsRequest, TrainModelRequest } from './models.message';
import type { TrainModelAcceptedDto } from '../http/models/model.response.dto';
import type { DecisionStatsReply, DecisionStatsRequest, DisputedTransactionsReply, DisputedTransactionsRequest, FraudSubjectsReply, FraudSubjectsRequest } from './stats.messages';
import type {
  GraphConnectReply,
  GraphConnectRequest,
  GraphNetworkFeaturesReply,
  GraphNetworkFeaturesRequest,
  GraphNeighbourhoodReply,
  GraphNeighbourhoodRequest,
  GraphVoucherUsesReply,
  GraphVoucherUsesRequest,
} from './graph.messages';
import type { DecisionSearchRequest, GraphSearchRequest, SubjectSearchReply } from './search.messages';
import type { CurrentLabelsOfReply, CurrentLabelsOfRequest, NetworkFactsReply, NetworkFactsRequest, SubjectDecisionsReply, SubjectDecisionsRequest } from './evidence.messages';
import type { PaymentReviewsOfReply, PaymentReviewsOfRequest } from './payment-reviews.message';

/**
 * Topic names follow `ringfence.<ingest|graph|label|decision|config|rpc>.<entity>.<event>.v1`
 * (`config`: changes of an account's configuration, such as its rules).
 * The ingest and decision topics are the data-warehouse feed.
 */
export const EventTopics = {
  customerUpdated: 'ringfence.ingest.customer.updated.v1',
  transactionUpdated: 'ringfence.ingest.transaction.updated.v1',
  customerScored: 'ringfence.decision.customer.scored.v1',
  supplierUpdated: 'ringfence.ingest.supplier.updated.v1',
  registrationSubmitted: 'ringfence.ingest.registration.submitted.v1',
  payoutRequested: 'ringfence.ingest.payout.requested.v1',
  refundRequested: 'ringfence.ingest.refund.requested.v1',
  voucherCreated: 'ringfence.ingest.voucher.created.v1',
  voucherRedemptionSubmitted: 'ringfence.ingest.voucher-redemption.submitted.v1',
  disputeUpdated: 'ringfence.ingest.dispute.updated.v1',
  connectLinked: 'ringfence.ingest.connect.linked.v1',
  registrationScored: 'ringfence.decision.registration.scored.v1',
  payoutScored: 'ringfence.decision.payout.scored.v1',
  refundScored: 'ringfence.decision.refund.scored.v1',
  voucherRedemptionScored: 'ringfence.decision.voucher-redemption.scored.v1',
  transactionScored: 'ringfence.decision.transaction.scored.v1',
  lookupIndicatorsAdded: 'ringfence.ingest.lookup.indicators-added.v1',
  lookupIndicatorsDeleted: 'ringfence.ingest.lookup.indicators-deleted.v1',
  customerLabelUpdated: 'ringfence.label.customer.updated.v1',
  supplierLabelUpdated: 'ringfence.label.supplier.updated.v1',
  ruleSaved: 'ringfence.config.rule.saved.v1',
  modelActivated: 'ringfence.config.model.activated.v1',
  clientEventsReceived: 'ringfence.ingest.device.client-events.v1',
  paymentReviewed: 'ringfence.label.payment.reviewed.v1',
} as const;

export const RpcTopics = {
  customerCheckpoint: 'ringfence.rpc.scoring.customer-checkpoint.v1',
  registrationCheckpoint: 'ringfence.rpc.scoring.registration-checkpoint.v1',
  payoutCheckpoint: 'ringfence.rpc.scoring.payout-checkpoint.v1',
  refundCheckpoint: 'ringfence.rpc.scoring.refund-checkpoint.v1',
  voucherRedemptionCheckpoint: 'ringfence.rpc.scoring.voucher-redemption-checkpoint.v1',
  transactionCheckpoint: 'ringfence.rpc.scoring.transaction-checkpoint.v1',
  addLookupIndicators: 'ringfence.rpc.lookup.add-indicators.v1',
  readLookupIndicators: 'ringfence.rpc.lookup.read-indicators.v1',
  deleteLookupIndicators: 'ringfence.rpc.lookup.delete-indicators.v1',
  applyLabel: 'ringfence.rpc.labelling.apply-label.v1',
  readLabels: 'ringfence.rpc.labelling.read-labels.v1',
  graphConnect: 'ringfence.rpc.graph.connect.v1',
  graphVoucherUses: 'ringfence.rpc.graph.voucher-uses.v1',
  graphNetworkFeatures: 'ringfence.rpc.graph.network-features.v1',
  graphNeighbourhood: 'ringfence.rpc.graph.neighbourhood.v1',
  graphSearch: 'ringfence.rpc.graph.search.v1',
  searchDecisions: 'ringfence.rpc.scoring.search-decisions.v1',
  readSubjectDecisions: 'ringfence.rpc.scoring.subject-decisions.v1',
  readNetworkFacts: 'ringfence.rpc.scoring.network-facts.v1',
  readCurrentLabelsOf: 'ringfence.rpc.labelling.current-labels-of.v1',
  readEntityDocuments: 'ringfence.rpc.ingestion.read-entity-documents.v1',
  readDevice: 'ringfence.rpc.ingestion.read-device.v1',
  readCurrentLabels: 'ringfence.rpc.labelling.read-current-labels.v1',
  checkpointEvidence: 'ringfence.rpc.lookup.checkpoint-evidence.v1',
  readCallbackDeliveries: 'ringfence.rpc.labelling.read-callback-deliveries.v1',
  callbackTarget: 'ringfence.rpc.gateway.callback-target.v1',
  readAccountFacts: 'ringfence.rpc.gateway.read-account-facts.v1',
  saveRule: 'ringfence.rpc.scoring.save-rule.v1',
  disableRule: 'ringfence.rpc.scoring.disable-rule.v1',
  readRules: 'ringfence.rpc.scoring.read-rules.v1',
  readRule: 'ringfence.rpc.scoring.read-rule.v1',
  validateRule: 'ringfence.rpc.scoring.validate-rule.v1',
  backtestRules: 'ringfence.rpc.scoring.backtest-rules.v1',
  readDecision: 'ringfence.rpc.scoring.read-decision.v1',
  readDecisions: 'ringfence.rpc.scoring.read-decisions.v1',
  trainModel: 'ringfence.rpc.scoring.train-model.v1',
  readModels: 'ringfence.rpc.scoring.read-models.v1',
  readModel: 'ringfence.rpc.scoring.read-model.v1',
  activateModel: 'ringfence.rpc.scoring.activate-model.v1',
  listCases: 'ringfence.rpc.labelling.list-cases.v1',
  readCase: 'ringfence.rpc.labelling.read-case.v1',
  caseAction: 'ringfence.rpc.labelling.case-action.v1',
  nextCase: 'ringfence.rpc.labelling.next-case.v1',
  bulkCases: 'ringfence.rpc.labelling.bulk-cases.v1',
  reviewPayment: 'ringfence.rpc.labelling.review-payment.v1',
  withdrawPaymentReview: 'ringfence.rpc.labelling.withdraw-payment-review.v1',
  readPaymentReviewsOf: 'ringfence.rpc.labelling.payment-reviews-of.v1',
  decisionStats: 'ringfence.rpc.scoring.decision-stats.v1',
  fraudSubjects: 'ringfence.rpc.labelling.fraud-subjects.v1',
  disputedTransactions: 'ringfence.rpc.graph.disputed-transactions.v1',
} as const;

/** The request topics of the checkpoints, answered by scoring. */
export type CheckpointRpcTopic =
  | typeof RpcTopics.customerCheckpoint
  | typeof RpcTopics.registrationCheckpoint
  | typeof RpcTopics.payoutCheckpoint
  | typeof RpcTopics.refundCheckpoint
  | typeof RpcTopics.voucherRedemptionCheckpoint
  | typeof RpcTopics.transactionCheckpoint;

/** Replies of every request topic come back on this topic, matched by correlation id. */
export const RPC_REPLY_TOPIC = 'ringfence.rpc.reply.v1';

export type EventTopic = (typeof EventTopics)[keyof typeof EventTopics];
export type RpcTopic = (typeof RpcTopics)[keyof typeof RpcTopics];

/** The payload every event topic carries: publishing the wrong one does not compile. */
export interface EventTopicMap {
  [EventTopics.customerUpdated]: CustomerUpdatedEvent;
  [EventTopics.transactionUpdated]: TransactionUpdatedEvent;
  [EventTopics.customerScored]: CustomerScoredEvent;
  [EventTopics.supplierUpdated]: SupplierUpdatedEvent;
  [EventTopics.registrationSubmitted]: RegistrationSubmittedEvent;
  [EventTopics.payoutRequested]: PayoutRequestedEvent;
  [EventTopics.refundRequested]: RefundRequestedEvent;
  [EventTopics.voucherCreated]: VoucherCreatedEvent;
  [EventTopics.voucherRedemptionSubmitted]: VoucherRedemptionSubmittedEvent;
  [EventTopics.disputeUpdated]: DisputeUpdatedEvent;
  [EventTopics.connectLinked]: ConnectLinkedEvent;
  [EventTopics.registrationScored]: RegistrationScoredEvent;
  [EventTopics.payoutScored]: PayoutScoredEvent;
  [EventTopics.refundScored]: RefundScoredEvent;
  [EventTopics.voucherRedemptionScored]: CustomerScoredEvent;
  [EventTopics.transactionScored]: TransactionScoredEvent;
  [EventTopics.lookupIndicatorsAdded]: LookupIndicatorsAddedEvent;
  [EventTopics.lookupIndicatorsDeleted]: LookupIndicatorsDeletedEvent;
  [EventTopics.customerLabelUpdated]: LabelUpdatedEvent;
  [EventTopics.supplierLabelUpdated]: LabelUpdatedEvent;
  [EventTopics.ruleSaved]: RuleChangedEvent;
  [EventTopics.modelActivated]: ModelActivatedEvent;
  [EventTopics.clientEventsReceived]: ClientEventsReceivedEvent;
  [EventTopics.paymentReviewed]: PaymentReviewedEvent;
}

export interface RpcTopicMap {
  // Checkpoints answer with the whole decision; the gateway publishes it and answers with its recommendation.
  [RpcTopics.customerCheckpoint]: { request: CustomerCheckpointRequest; reply: CheckpointScoredEvent<CustomerCheckpointReply> };
  [RpcTopics.registrationCheckpoint]: { request: RegistrationSubmittedEvent; reply: CheckpointScoredEvent<RegistrationCheckpointReply> };
  [RpcTopics.payoutCheckpoint]: { request: PayoutRequestedEvent; reply: CheckpointScoredEvent<PayoutCheckpointReply> };
  [RpcTopics.refundCheckpoint]: { request: RefundRequestedEvent; reply: CheckpointScoredEvent<RefundCheckpointReply> };
  [RpcTopics.voucherRedemptionCheckpoint]: { request: VoucherRedemptionSubmittedEvent; reply: CheckpointScoredEvent<VoucherRedemptionCheckpointReply> };
  [RpcTopics.transactionCheckpoint]: { request: TransactionUpdatedEvent; reply: CheckpointScoredEvent<TransactionCheckpointReply> };
  [RpcTopics.addLookupIndicators]: { request: AddLookupIndicatorsRequest; reply: AddLookupIndicatorsReply };
  [RpcTopics.readLookupIndicators]: { request: ReadLookupIndicatorsRequest; reply: ReadLookupIndicatorsReply };
  [RpcTopics.deleteLookupIndicators]: { request: DeleteLookupIndicatorsRequest; reply: DeleteLookupIndicatorsReply };
  [RpcTopics.applyLabel]: { request: ApplyLabelRequest; reply: ApplyLabelReply };
  [RpcTopics.readLabels]: { request: ReadLabelsRequest; reply: ReadLabelsReply };
  [RpcTopics.graphConnect]: { request: GraphConnectRequest; reply: GraphConnectReply };
  [RpcTopics.graphVoucherUses]: { request: GraphVoucherUsesRequest; reply: GraphVoucherUsesReply };
  [RpcTopics.graphNetworkFeatures]: { request: GraphNetworkFeaturesRequest; reply: GraphNetworkFeaturesReply };
  [RpcTopics.graphNeighbourhood]: { request: GraphNeighbourhoodRequest; reply: GraphNeighbourhoodReply };
  [RpcTopics.graphSearch]: { request: GraphSearchRequest; reply: SubjectSearchReply };
  [RpcTopics.searchDecisions]: { request: DecisionSearchRequest; reply: SubjectSearchReply };
  [RpcTopics.readSubjectDecisions]: { request: SubjectDecisionsRequest; reply: SubjectDecisionsReply };
  [RpcTopics.readNetworkFacts]: { request: NetworkFactsRequest; reply: NetworkFactsReply };
  [RpcTopics.readCurrentLabelsOf]: { request: CurrentLabelsOfRequest; reply: CurrentLabelsOfReply };
  [RpcTopics.readEntityDocuments]: { request: ReadEntityDocumentsRequest; reply: ReadEntityDocumentsReply };
  [RpcTopics.readDevice]: { request: ReadDeviceRequest; reply: ReadDeviceReply };
  [RpcTopics.readCurrentLabels]: { request: ReadCurrentLabelsRequest; reply: ReadCurrentLabelsReply };
  [RpcTopics.checkpointEvidence]: { request: CheckpointEvidenceRequest; reply: CheckpointEvidenceReply };
  [RpcTopics.readCallbackDeliveries]: { request: ReadCallbackDeliveriesRequest; reply: ReadCallbackDeliveriesReply };
  [RpcTopics.callbackTarget]: { request: CallbackTargetRequest; reply: CallbackTargetReply };
  [RpcTopics.readAccountFacts]: { request: ReadAccountFactsRequest; reply: ReadAccountFactsReply };
  [RpcTopics.saveRule]: { request: SaveRuleRequest; reply: SaveRuleReply };
  [RpcTopics.trainModel]: { request: TrainModelRequest; reply: TrainModelAcceptedDto };
  [RpcTopics.readModels]: { request: ReadModelsRequest; reply: ModelsReply };
  [RpcTopics.readModel]: { request: ModelRequest; reply: ModelReply };
  [RpcTopics.activateModel]: { request: ModelRequest; reply: ModelReply };
  [RpcTopics.disableRule]: { request: DisableRuleRequest; reply: SaveRuleReply };
  [RpcTopics.readRules]: { request: ReadRulesRequest; reply: ReadRulesReply };
  [RpcTopics.readRule]: { request: ReadRuleRequest; reply: ReadRuleReply };
  [RpcTopics.validateRule]: { request: ValidateRuleRequest; reply: ValidateRuleReply };
  [RpcTopics.backtestRules]: { request: BacktestRulesRequest; reply: BacktestRulesReply };
  [RpcTopics.readDecision]: { request: ReadDecisionRequest; reply: ReadDecisionReply };
  [RpcTopics.readDecisions]: { request: ReadDecisionsRequest; reply: ReadDecisionsReply };
  [RpcTopics.listCases]: { request: ListCasesRequest; reply: ListCasesReply };
  [RpcTopics.readCase]: { request: ReadCaseRequest; reply: ReadCaseReply };
  [RpcTopics.caseAction]: { request: CaseActionRequest; reply: CaseActionReply };
  [RpcTopics.nextCase]: { request: NextCaseRequest; reply: NextCaseReply };
  [RpcTopics.bulkCases]: { request: BulkCasesRequest; reply: BulkCasesReply };
  [RpcTopics.reviewPayment]: { request: ReviewPaymentRequest; reply: PaymentReviewMessage };
  [RpcTopics.withdrawPaymentReview]: { request: WithdrawPaymentReviewRequest; reply: PaymentReviewMessage };
  [RpcTopics.readPaymentReviewsOf]: { request: PaymentReviewsOfRequest; reply: PaymentReviewsOfReply };
  [RpcTopics.decisionStats]: { request: DecisionStatsRequest; reply: DecisionStatsReply };
  [RpcTopics.fraudSubjects]: { request: FraudSubjectsRequest; reply: FraudSubjectsReply };
  [RpcTopics.disputedTransactions]: { request: DisputedTransactionsRequest; reply: DisputedTransactionsReply };
}

/** Every topic the service uses, for pre-creating them on a broker without CreateTopics. */
export const ALL_TOPICS: readonly string[] = [
  ...Object.values(EventTopics),
  ...Object.values(RpcTopics),
  RPC_REPLY_TOPIC,
];

/**
 * The data-warehouse feed: every accepted event (ingest), every recommendation (decision) and
 * every label change. In the distributed mode these are Kafka topics; in the embedded mode the
 * same events are kept in the append-only event log and exported with `ringfence feed export`.
 */
export const WAREHOUSE_FEED_TOPICS: readonly string[] = Object.values(EventTopics).filter((topic) =>
  /^ringfence\.(ingest|decision|label)\./.test(topic),
);

/** A checkpoint's answer to the client: the recommendation of the decision scoring replies with. */
export type CheckpointRecommendation<R extends CheckpointRpcTopic> = RpcTopicMap[R]['reply']['recommendation'];
