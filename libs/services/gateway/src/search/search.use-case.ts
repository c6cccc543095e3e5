import { Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import {
  DECISION_SEARCH_KINDS,
  type DecisionSearchKind,
  type EntityDocumentMessage,
  GRAPH_SEARCH_KINDS,
  type GraphSearchKind,
  MAX_ENTITY_DOCUMENTS_PER_READ,
  RpcTopics,
  SEARCH_KINDS,
  type SearchQueryDto,
  type SearchResponseDto,
  type SearchResultDto,
  type SubjectMatchMessage,
} from '@ringfence/contracts';
import { chunks } from '@ringfence/platform';
import { OwnerRequests } from '../owner-requests.service';
import { RateLimits } from '../rate-limit/rate-limits.service';
import { type SearchCandidate, searchCandidates } from './search-query';

/** The envelope's subject: a search is about the data set, not one customer. */
const SEARCH_SUBJECT_ID = 'search';

const isGraphKind = (candidate: SearchCandidate): candidate is SearchCandidate & { kind: GraphSearchKind } => (GRAPH_SEARCH_KINDS as readonly string[]).includes(candidate.kind);
const isDecisionKind = (candidate: SearchCandidate): candidate is SearchCandidate & { kind: DecisionSearchKind } => (DECISION_SEARCH_KINDS as readonly string[]).includes(candidate.kind);

/**
 * `GET /v2/search` (ADR-0014): the query text read as every kind it can be, each reading asked of
 * the service that keeps it, in parallel: the graph (ids, e-mail, phone, device, instrument) and
 * scoring (IP address and card BIN…last4, as decisions saw them). Both answer only once they have
 * handled the account's earlier writes, so a customer posted is found on the next request. The
 * stored records of the subjects found then give their name and e-mail (ingestion), and the
 * customers' current PAYMENT_FRAUD label comes from labelling, in parallel.
 */
@Injectable()
export class SearchUseCase {
  constructor(
    private readonly owner: OwnerRequests,
    private readonly limits: RateLimits,
  ) {}

  async search(principal: Principal, query: SearchQueryDto, traceId: string): Promise<SearchResponseDto> {
    // One search is one request of the account's rate limit, however many owners it asks.
    await this.limits.refuseWhenAccountLimited(principal);
    const candidates = searchCandidates(query.q, query.kind);
    const graphCandidates = candidates.filter(isGraphKind);
    const decisionCandidates = candidates.filter(isDecisionKind);
    const [graph, decisions] = await Promise.all([
      graphCandidates.length === 0 ? { matches: [] } : this.owner.send(principal, traceId, SEARCH_SUBJECT_ID, RpcTopics.graphSearch, { candidates: graphCandidates, limit: query.limit }),
      decisionCandidates.length === 0 ? { matches: [] } : this.owner.send(principal, traceId, SEARCH_SUBJECT_ID, RpcTopics.searchDecisions, { candidates: decisionCandidates, limit: query.limit }),
    ]);
    const matches = merged([...graph.matches, ...decisions.matches], query.limit);
    const customerIds = matches.flatMap((match) => (match.subjectType === 'customer' ? [match.subjectId] : []));
    const [records, labels] = await Promise.all([
      this.records(principal, traceId, matches),
      customerIds.length === 0 ? { labels: [] } : this.owner.send(principal, traceId, SEARCH_SUBJECT_ID, RpcTopics.readCurrentLabelsOf, { customerIds }),
    ]);
    const paymentFraud = new Map(customerIds.map((customerId, k) => [customerId, labels.labels[k]?.PAYMENT_FRAUD ?? null]));
    const results = matches.map((match, k): SearchResultDto => ({
      ...match,
      ...contactOf(records[k]),
      ...(match.subjectType === 'customer' ? { label: paymentFraud.get(match.subjectId) ?? null } : {}),
    }));
    return { status: 200, timestamp: Date.now(), data: { results } };
  }

  /** The stored record of each match (null when none), read in parallel batches of what one read takes. */
  private async records(principal: Principal, traceId: string, matches: SubjectMatchMessage[]): Promise<Array<EntityDocumentMessage | null>> {
    const read = await Promise.all(
      [...chunks(matches, MAX_ENTITY_DOCUMENTS_PER_READ)].map((batch) =>
        this.owner.send(principal, traceId, SEARCH_SUBJECT_ID, RpcTopics.readEntityDocuments, { refs: batch.map((match) => ({ kind: match.subjectType, entityId: match.subjectId })) }),
      ),
    );
    return read.flatMap((reply) => reply.documents);
  }
}

/** Each subject once, by its most specific reading (the order of SEARCH_KINDS), at most `limit`. */
export function merged(matches: readonly SubjectMatchMessage[], limit: number): SubjectMatchMessage[] {
  const rank = (match: SubjectMatchMessage) => SEARCH_KINDS.indexOf(match.matched.kind);
  const bySubject = new Map<string, SubjectMatchMessage>();
  for (const match of [...matches].sort((a, b) => rank(a) - rank(b))) {
    const key = `${match.subjectType}:${match.subjectId}`;
    if (!bySubject.has(key)) bySubject.set(key, match);
  }
  return [...bySubject.values()].slice(0, limit);
}

function contactOf(document: EntityDocumentMessage | null | undefined): { name?: string; email?: string } {
  const fields = document?.fields ?? {};
  return {
    ...(typeof fields.name === 'string' ? { name: fields.name } : {}),
    ...(typeof fields.email === 'string' ? { email: fields.email } : {}),
  };
}
