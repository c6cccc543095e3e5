import { Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import { type GraphNeighbourhoodReply, type GraphNeighbourhoodRequest, RpcTopics, type SubjectNetworkQueryDto } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { OwnerRequests } from '../owner-requests.service';
import { networkQuestions, withNetworkAnswers } from './network-facts';

/** Whose record or network a route reads. */
export type SubjectKind = GraphNeighbourhoodRequest['subjectKind'];

/** `{customerId | supplierId, fields, updatedAt}`: a customer or supplier as stored. */
export type SubjectRecordView = { fields: Record<string, unknown>; updatedAt: number | null } & ({ customerId: string } | { supplierId: string });

/**
 * The subject routes: each is one request to the service that owns what it reads (the entity
 * store of ingestion, the graph), for the key's account and data set. Both owners answer only
 * once their consumers have handled the account's earlier writes, so a write answered 2xx shows
 * on the very next read (ADR-0010). Reads are counted against the account's rate limit. A
 * network then asks scoring and labelling, in parallel, what the graph does not keep: its
 * customers' scores and labels, its cards' BIN…last4 (ADR-0014).
 */
@Injectable()
export class SubjectsUseCase {
  constructor(private readonly owner: OwnerRequests) {}

  async record(principal: Principal, kind: SubjectKind, subjectId: string, traceId: string): Promise<{ status: number; timestamp: number; data: SubjectRecordView }> {
    const { documents } = await this.owner.ask(principal, traceId, subjectId, RpcTopics.readEntityDocuments, { refs: [{ kind, entityId: subjectId }] });
    const document = documents[0] ?? null;
    if (document === null) throw new AppError('NOT_FOUND', `no ${kind} ${subjectId} in this data set`);
    // A record named only by its id has no field, hence no time.
    const updatedAt = Object.values(document.fieldTimestamps).reduce<number | null>((newest, time) => (newest === null || time > newest ? time : newest), null);
    const identifier = kind === 'customer' ? { customerId: subjectId } : { supplierId: subjectId };
    return { status: 200, timestamp: Date.now(), data: { ...identifier, fields: document.fields, updatedAt } };
  }

  async network(
    principal: Principal,
    subjectKind: SubjectKind,
    subjectId: string,
    query: SubjectNetworkQueryDto,
    traceId: string,
  ): Promise<{ status: number; timestamp: number; data: GraphNeighbourhoodReply }> {
    const network = await this.owner.ask(principal, traceId, subjectId, RpcTopics.graphNeighbourhood, {
      subjectKind,
      subjectId,
      depth: query.depth,
      limit: query.limit,
      nowMs: Date.now(),
    });
    // What the graph does not keep, from its owners, in parallel: scores and cards (scoring), labels
    // (labelling); sent without counting the request against the rate limit again (`ask` counted it).
    const { customerIds, instrumentIds } = networkQuestions(network);
    const [facts, labels] = await Promise.all([
      customerIds.length + instrumentIds.length === 0 ? { scores: [], cards: [] } : this.owner.send(principal, traceId, subjectId, RpcTopics.readNetworkFacts, { customerIds, instrumentIds }),
      customerIds.length === 0 ? { labels: [] } : this.owner.send(principal, traceId, subjectId, RpcTopics.readCurrentLabelsOf, { customerIds }),
    ]);
    return { status: 200, timestamp: Date.now(), data: withNetworkAnswers(network, { scores: facts.scores, cards: facts.cards, labels: labels.labels }) };
  }
}
