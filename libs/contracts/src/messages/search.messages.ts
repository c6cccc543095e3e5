import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';

/**
 * What a search can match (`GET /v2/search`, ADR-0014): a subject's own id, or an attribute it
 * was seen with. The graph answers the ids and the attributes it keeps as nodes (e-mail, phone,
 * device, a card's instrument id); scoring answers those only its decisions saw (IP address, a
 * card's BIN and last four digits).
 */
export const SEARCH_KINDS = ['customerId', 'supplierId', 'email', 'phone', 'card', 'instrument', 'device', 'ip'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The kinds the graph answers; the others are scoring's (`DECISION_SEARCH_KINDS`). */
export const GRAPH_SEARCH_KINDS = ['customerId', 'supplierId', 'email', 'phone', 'instrument', 'device'] as const satisfies readonly SearchKind[];
export const DECISION_SEARCH_KINDS = ['card', 'ip'] as const satisfies readonly SearchKind[];
export type GraphSearchKind = (typeof GRAPH_SEARCH_KINDS)[number];
export type DecisionSearchKind = (typeof DECISION_SEARCH_KINDS)[number];

/** Results a search answers at most, and by default. */
export const MAX_SEARCH_RESULTS = 50;
export const DEFAULT_SEARCH_RESULTS = 20;
/** Readings of one query text (an e-mail is also tried as an id, and so on). */
export const MAX_SEARCH_CANDIDATES = 8;

/** One reading of the query: a kind and the value to look up, already in the form its owner keys it by. */
export class SearchCandidateMessage<K extends string = SearchKind> {
  @IsString() kind!: K;
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) value!: string;
}

class GraphSearchCandidateMessage extends SearchCandidateMessage<GraphSearchKind> {
  @IsIn(GRAPH_SEARCH_KINDS) declare kind: GraphSearchKind;
}

class DecisionSearchCandidateMessage extends SearchCandidateMessage<DecisionSearchKind> {
  @IsIn(DECISION_SEARCH_KINDS) declare kind: DecisionSearchKind;
}

/** `ringfence.rpc.graph.search.v1`: subjects by id or by an attribute node they are linked to. */
export class GraphSearchRequest {
  @IsArray() @ArrayMaxSize(MAX_SEARCH_CANDIDATES) @ValidateNested({ each: true }) @Type(() => GraphSearchCandidateMessage)
  candidates!: GraphSearchCandidateMessage[];

  @IsInt() @Min(1) @Max(MAX_SEARCH_RESULTS) limit!: number;
}

/** `ringfence.rpc.scoring.search-decisions.v1`: subjects whose decisions saw an IP address or a card (BIN…last4). */
export class DecisionSearchRequest {
  @IsArray() @ArrayMaxSize(MAX_SEARCH_CANDIDATES) @ValidateNested({ each: true }) @Type(() => DecisionSearchCandidateMessage)
  candidates!: DecisionSearchCandidateMessage[];

  @IsInt() @Min(1) @Max(MAX_SEARCH_RESULTS) limit!: number;
}

/** A subject found, and the reading that found it. */
export interface SubjectMatchMessage {
  subjectType: 'customer' | 'supplier';
  subjectId: string;
  matched: { kind: SearchKind; value: string };
}

export interface SubjectSearchReply {
  matches: SubjectMatchMessage[];
}
