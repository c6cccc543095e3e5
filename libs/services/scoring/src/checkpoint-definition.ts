import type { Checkpoint, CheckpointRecommendation, CheckpointRpcTopic, EventTopic, GraphSourceTopic, LabelCategory, PayloadFacts, RpcTopicMap, ScoredAnswerParts } from '@ringfence/contracts';
import type { EntityKind, EntityUpdate } from '@ringfence/entities';
import type { Decision } from '@ringfence/scoring-engine';
import type { InputClass } from '@ringfence/service-runtime';

/** Whose identity a checkpoint scores: the customer or the supplier it is about. */
export interface CheckpointSubject {
  kind: 'customer' | 'supplier';
  id: string;
}

/** An entity the payload names only by id; unknown ones give a `<kind>-not-found` warning. */
export interface EntityReference {
  kind: Extract<EntityKind, 'customer' | 'supplier' | 'order' | 'transaction' | 'paymentMethod'>;
  id: string;
}

/** A voucher redemption's code and type: the scorer asks the graph for the code's uses in the redeemer's network. */
export interface VoucherUse {
  voucherCode: string;
  voucherType?: string;
}

/** What the scorer worked out, for the definition to shape into its checkpoint's reply. */
export interface CheckpointOutcome extends ScoredAnswerParts {
  /** Its `reason` is for the decision event only: replies take action, source and score. */
  decision: Decision;
}

/**
 * One checkpoint: which request topic it answers, what in the payload it scores, and the shape
 * of its answer. The scoring itself (store, labels, chargebacks, lookups, model, precedence) is
 * the same for every checkpoint and lives in `CheckpointScorer`.
 */
export interface CheckpointDefinition<R extends CheckpointRpcTopic = CheckpointRpcTopic> {
  checkpoint: Checkpoint;
  rpcTopic: R;
  /** Where the gateway publishes the same payload; the graph reads it under this name. */
  ingestTopic: GraphSourceTopic;
  decisionTopic: EventTopic;
  payloadClass: InputClass<RpcTopicMap[R]['request']>;
  subject(payload: RpcTopicMap[R]['request']): CheckpointSubject;
  /** The entities the payload describes, from its facts: the extraction ingestion stores. */
  updates(facts: PayloadFacts): EntityUpdate[];
  references(payload: RpcTopicMap[R]['request']): EntityReference[];
  /**
   * Label categories that decide this checkpoint besides the subject's fraud category
   * (PAYMENT_FRAUD for customers, SUPPLIER_FRAUD for suppliers): REFUND_ABUSE at refunds.
   */
  customerLabelCategories?: readonly LabelCategory[];
  /** The voucher a redemption uses, whose network abuse count the answer considers. */
  voucherUse?(payload: RpcTopicMap[R]['request']): VoucherUse | null;
  /** The recommendation: the `data` of the HTTP answer (the contracts' `CHECKPOINT_ANSWERS`, which the gateway's unscored answers share). */
  reply(payload: RpcTopicMap[R]['request'], outcome: CheckpointOutcome): CheckpointRecommendation<R>;
}
