import type { AccountSettings } from '@ringfence/accounts';
import { type CheckpointRpcTopic, type MessageEnvelope, PSP_CHECKPOINTS, type PayloadFacts, type RpcTopicMap, type RuleCheckpoint, payloadFacts, toWireJson } from '@ringfence/contracts';
import { type EntityDocument, type EntityUpdate, mergeDocument } from '@ringfence/entities';
import { type CheckpointLookupPolicy, type KnownIndicatorQuery, checkpointLookupPolicy } from '@ringfence/lookup';
import { merchantOfFacts } from '@ringfence/scoring-engine';
import { requestAccount } from '@ringfence/service-runtime';
import type { CheckpointDefinition, CheckpointSubject, EntityReference } from '../checkpoint-definition';
import { indicatorsOfFacts } from '../payload-indicators';

/** What a checkpoint request says by itself, read once before anything is asked of the owners. */
export interface CheckpointRequest<R extends CheckpointRpcTopic = CheckpointRpcTopic> {
  payload: RpcTopicMap[R]['request'];
  /** The payload's time: "now" of the features, the lookup and the graph. */
  timestamp: number;
  subject: CheckpointSubject;
  /** The payload's wire form: generic walks read the open objects as the client sent them. */
  json: Record<string, unknown>;
  /** What the payload names, read once and handed to every reader (entities, lookup, graph question, features). */
  facts: PayloadFacts;
  /** The entities the payload describes, as ingestion will store them. */
  updates: EntityUpdate[];
  references: EntityReference[];
  /** The merchant whose fraud rate the graph is asked for. */
  merchantId: string | undefined;
  /** The account's settings as the gateway authenticated the request (it owns the accounts). */
  settings: AccountSettings;
  lookupPolicy: CheckpointLookupPolicy;
  /** The checkpoint as rules name it; null for a PSP transaction sent to no rule checkpoint. */
  ruleCheckpoint: RuleCheckpoint | null;
  /**
   * The known-fraud indicators the request itself names (its subject's e-mail and telephone, the
   * device's IP, the instruments): the lookup is asked about them at once, beside the other facts.
   */
  indicators: KnownIndicatorQuery;
}

export function readCheckpointRequest<R extends CheckpointRpcTopic>(
  definition: CheckpointDefinition<R>,
  message: MessageEnvelope<RpcTopicMap[R]['request']>,
): CheckpointRequest<R> {
  const { payload } = message;
  const timestamp = (payload as { timestamp: number }).timestamp;
  const subject = definition.subject(payload);
  const json = toWireJson(payload);
  const facts = payloadFacts(json);
  const updates = definition.updates(facts);
  const { settings } = requestAccount(message);
  return {
    payload,
    timestamp,
    subject,
    json,
    facts,
    updates,
    references: definition.references(payload),
    merchantId: merchantOfFacts(definition.ingestTopic, facts),
    settings,
    lookupPolicy: checkpointLookupPolicy(settings),
    ruleCheckpoint: ruleCheckpointOf(definition.checkpoint, json),
    // The subject's own fields as sent: a merge into no stored document would copy them and time
    // every leaf, while the indicators read only top-level texts (e-mail, telephone), the same in both.
    indicators: indicatorsOfFacts(ownUpdate(updates, subject)?.fields ?? {}, facts),
  };
}

/** The subject as stored, with this request's fields merged the way ingestion will merge them (read your own writes). */
export function subjectWithRequest(stored: EntityDocument | null, { updates, subject, timestamp }: CheckpointRequest): EntityDocument | null {
  return ownDocument(stored, updates, subject, timestamp);
}

/** The update of the request's own subject, when the payload describes it. */
function ownUpdate(updates: readonly EntityUpdate[], subject: CheckpointSubject): EntityUpdate | undefined {
  return updates.find((update) => update.kind === subject.kind && update.entityId === subject.id);
}

function ownDocument(stored: EntityDocument | null, updates: readonly EntityUpdate[], subject: CheckpointSubject, timestamp: number): EntityDocument | null {
  const own = ownUpdate(updates, subject);
  return own ? (mergeDocument(stored, own.fields, timestamp) ?? stored) : stored;
}

/** The checkpoint as rules name it: a PSP transaction's by the checkpoint it was sent to; null without one. */
function ruleCheckpointOf(checkpoint: string, json: Record<string, unknown>): RuleCheckpoint | null {
  if (checkpoint !== 'transaction') return checkpoint as RuleCheckpoint;
  return PSP_CHECKPOINTS.find((name) => name === json.checkpoint) ?? null;
}
