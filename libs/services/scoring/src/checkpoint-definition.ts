import type { Checkpoint, EventTopic, GraphSourceTopic, RpcTopic, RpcTopicMap, WarningDto } from '@ringfence/contracts';
import type { EntityKind, EntityUpdate } from '@ringfence/entities';
import type { Decision, ScoreContribution } from '@ringfence/scoring-engine';
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

/** What the scorer worked out, for the definition to shape into its checkpoint's reply. */
export interface CheckpointOutcome {
  decision: Decision;
  scoreId: string;
  warnings: WarningDto[];
}

/**
 * One checkpoint: which request topic it answers, what in the payload it scores, and the shape
 * of its answer. The scoring itself (store, labels, chargebacks, lookups, model, precedence) is
 * the same for every checkpoint and lives in `CheckpointScorer`.
 */
export interface CheckpointDefinition<R extends RpcTopic = RpcTopic> {
  checkpoint: Checkpoint;
  rpcTopic: R;
  /** Where the gateway publishes the same payload; the graph reads it under this name. */
  ingestTopic: GraphSourceTopic;
  decisionTopic: EventTopic;
  payloadClass: InputClass<RpcTopicMap[R]['request']>;
  subject(payload: RpcTopicMap[R]['request']): CheckpointSubject;
  /** The entities the payload (in its wire JSON form) describes: the extraction ingestion stores. */
  updates(wire: Record<string, unknown>): EntityUpdate[];
  references(payload: RpcTopicMap[R]['request']): EntityReference[];
  signals(payload: RpcTopicMap[R]['request']): ScoreContribution[];
  /**
   * Whether the subject's identity (verified contacts, account age…) counts. A card transaction
   * is judged on its own signals: the PSP sends little about the customer.
   */
  scoresIdentity: boolean;
  reply(payload: RpcTopicMap[R]['request'], outcome: CheckpointOutcome): RpcTopicMap[R]['reply'];
}
