import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';
import { LabelSubjectMessage, type CurrentLabelMessage } from './labelling.message';
import type { LabelCategory } from '../http/labels/label-vocabulary';
import { ENTITY_KINDS, type EntityKind } from './payload-routes';

/*
 * What scoring asks the services that own the data it decides with (docs/architecture.md,
 * "Each service owns its data"): ingestion for stored entities, labelling for current labels,
 * lookup for known-fraud evidence. Each owner answers from its own state, after its own
 * consumers have caught up where its state is fed by topics, so scoring shares no table.
 */

/**
 * The kinds of known-fraud indicator. The names are the request's: the GET query parameters
 * and the keys of the answers (`paymentMethod` is stored as whichever one of its identifiers
 * was sent).
 */
export const INDICATOR_KINDS = ['email', 'telephone', 'ipAddress', 'instrumentId', 'payerId', 'bankId'] as const;
export type IndicatorKind = (typeof INDICATOR_KINDS)[number];

/** The most entities one read names: a checkpoint's subject and the entities it refers to. */
export const MAX_ENTITY_DOCUMENTS_PER_READ = 16;

/** One stored entity of the envelope's tenant. */
export class EntityRefMessage {
  @IsIn(ENTITY_KINDS) kind!: EntityKind;
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) entityId!: string;
}

/**
 * `ringfence.rpc.ingestion.read-entity-documents.v1`: entities as stored, answered by the
 * ingestion service once its consumer has handled the account's earlier events.
 */
export class ReadEntityDocumentsRequest {
  @IsArray()
  @ArrayMaxSize(MAX_ENTITY_DOCUMENTS_PER_READ)
  @ValidateNested({ each: true })
  @Type(() => EntityRefMessage)
  refs!: EntityRefMessage[];
}

/** An entity as stored: its fields, and the timestamp (epoch ms) that set each leaf path. */
export interface EntityDocumentMessage {
  fields: Record<string, unknown>;
  fieldTimestamps: Record<string, number>;
}

export interface ReadEntityDocumentsReply {
  /** One per asked ref, in the order asked; null for an entity never stored. */
  documents: (EntityDocumentMessage | null)[];
}

/** `ringfence.rpc.labelling.read-current-labels.v1`: a subject's current labels, without the audit log. */
export class ReadCurrentLabelsRequest extends LabelSubjectMessage {}

export interface ReadCurrentLabelsReply {
  /** Only the categories that have a label. */
  labels: Partial<Record<LabelCategory, CurrentLabelMessage>>;
}

/**
 * `ringfence.rpc.lookup.checkpoint-evidence.v1`: which of a checkpoint's values (normalised as
 * the lookup service normalises them) carry known-fraud evidence: the account's own, and the
 * other accounts' of the data set as counts.
 */
export class CheckpointEvidenceRequest {
  @IsArray() @ArrayMaxSize(64) @IsString({ each: true }) emails!: string[];
  @IsArray() @ArrayMaxSize(64) @IsString({ each: true }) phones!: string[];
  @IsArray() @ArrayMaxSize(64) @IsString({ each: true }) ips!: string[];
  @IsArray() @ArrayMaxSize(64) @IsString({ each: true }) instrumentIds!: string[];
  /** Other accounts' evidence counts only when their industry equals the asking account's. */
  @IsBoolean() limitIndustry!: boolean;
}

interface EvidenceCountsMessage {
  chargebacks: number;
  manualReviews: number;
  reports: number;
}

/** As `CheckpointIndicatorEvidence` of @ringfence/lookup. */
export interface CheckpointIndicatorEvidenceMessage {
  kind: IndicatorKind;
  value: string;
  own: EvidenceCountsMessage;
  otherAccounts: number;
  otherEvidence: EvidenceCountsMessage;
  otherLastSeen: number | null;
}

export interface CheckpointEvidenceReply {
  /** Only the values with some visible evidence. */
  evidence: CheckpointIndicatorEvidenceMessage[];
}
