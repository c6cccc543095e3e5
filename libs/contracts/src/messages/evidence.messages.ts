import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';

/** Decisions a customer's evidence reads at most (newest first): its payments, orders and refunds come from them. */
export const MAX_EVIDENCE_DECISIONS = 100;

/**
 * `ringfence.rpc.scoring.subject-decisions.v1`: a subject's newest decisions with what each saw
 * (the payload as sent, the IP and card countries the features read), for its evidence.
 */
export class SubjectDecisionsRequest {
  @IsIn(['customer', 'supplier']) subjectKind!: 'customer' | 'supplier';
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) subjectId!: string;
  @IsInt() @Min(1) @Max(MAX_EVIDENCE_DECISIONS) limit!: number;
}

/** One decision as evidence: the answer, and the request it answered. */
export interface EvidenceDecisionMessage {
  scoreId: string;
  /** The checkpoint as rules name it (`pspBeforeAuth`, `customer`, `refund`…). */
  checkpoint: string;
  /** The payload's time, epoch ms. */
  timestamp: number;
  action: string | null;
  score: number | null;
  /** The request as sent (null when the record kept none). */
  payload: Record<string, unknown> | null;
  /** The country of the payload's IP address, as the features read it. */
  ipCountry?: string;
  /** The card's issuing country, as the features read it. */
  cardCountry?: string;
}

export interface SubjectDecisionsReply {
  decisions: EvidenceDecisionMessage[];
}

/** Customers or cards a network asks about at most (a neighbourhood's nodes). */
export const MAX_NETWORK_FACTS = 500;

/**
 * `ringfence.rpc.scoring.network-facts.v1`: what scoring knows of a drawn network's nodes: each
 * customer's latest decision's score (null: none, or an answer without a score), and each card
 * instrument as `BIN…last4` (null: no decision saw both).
 */
export class NetworkFactsRequest {
  @IsArray() @ArrayMaxSize(MAX_NETWORK_FACTS) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_IDENTIFIER_LENGTH, { each: true }) customerIds!: string[];
  @IsArray() @ArrayMaxSize(MAX_NETWORK_FACTS) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_IDENTIFIER_LENGTH, { each: true }) instrumentIds!: string[];
}

export interface NetworkFactsReply {
  /** In the order asked. */
  scores: Array<number | null>;
  /** In the order asked. */
  cards: Array<string | null>;
}

/** `ringfence.rpc.labelling.current-labels-of.v1`: the current labels of a drawn network's customers. */
export class CurrentLabelsOfRequest {
  @IsArray() @ArrayMaxSize(MAX_NETWORK_FACTS) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_IDENTIFIER_LENGTH, { each: true }) customerIds!: string[];
}

export interface CurrentLabelsOfReply {
  /** In the order asked: each customer's current label per category (`{PAYMENT_FRAUD: 'FRAUDSTER'}`), empty when it has none. */
  labels: Array<Record<string, string>>;
}
