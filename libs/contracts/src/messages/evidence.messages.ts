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

/** Customers whose latest scores a network asks at most (its customers). */
export const MAX_LATEST_SCORES = 500;

/** `ringfence.rpc.scoring.latest-scores.v1`: each customer's latest decision's score (null: none, or unscored). */
export class LatestScoresRequest {
  @IsArray() @ArrayMaxSize(MAX_LATEST_SCORES) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_IDENTIFIER_LENGTH, { each: true }) customerIds!: string[];
}

export interface LatestScoresReply {
  /** In the order asked. */
  scores: Array<number | null>;
}
