import { Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import {
  type CurrentPaymentReview,
  type CustomerEvidenceResponseDto,
  type EntityDocumentMessage,
  type EntityKind,
  MAX_ENTITY_DOCUMENTS_PER_READ,
  MAX_EVIDENCE_DECISIONS,
  MAX_PAYMENT_REVIEWS_PER_READ,
  RpcTopics,
} from '@ringfence/contracts';
import { AppError, chunks } from '@ringfence/platform';
import { OwnerRequests } from '../owner-requests.service';
import { RateLimits } from '../rate-limit/rate-limits.service';
import { customerEvidence, disputeIdsOf, readings } from './customer-evidence';

/** Disputes an evidence reads at most (three reads of the entity store). */
const MAX_EVIDENCE_DISPUTES = 3 * MAX_ENTITY_DOCUMENTS_PER_READ;

/**
 * `GET /v2/customer/:customerId/evidence` (ADR-0014): what the decisions about a customer saw,
 * from the services that own it, in three rounds of parallel requests, each bounded:
 * 1. the customer's record (ingestion) and its newest 100 decisions with their payloads (scoring);
 * 2. the records of the payments those decisions name (ingestion, which keeps their disputes),
 *    and their analysts' reviews (labelling);
 * 3. the disputes' records (ingestion), at most 48.
 * Every owner answers after it has handled the account's earlier writes (read your writes).
 */
@Injectable()
export class EvidenceUseCase {
  constructor(
    private readonly owner: OwnerRequests,
    private readonly limits: RateLimits,
  ) {}

  async customer(principal: Principal, customerId: string, traceId: string): Promise<CustomerEvidenceResponseDto> {
    // One evidence is one request of the account's rate limit, however many reads it takes.
    await this.limits.refuseWhenAccountLimited(principal);
    const read = (kind: EntityKind, ids: readonly string[]) => this.documents(principal, traceId, customerId, kind, ids);
    const [[customer = null], { decisions }] = await Promise.all([
      read('customer', [customerId]),
      this.owner.send(principal, traceId, customerId, RpcTopics.readSubjectDecisions, { subjectKind: 'customer', subjectId: customerId, limit: MAX_EVIDENCE_DECISIONS }),
    ]);
    if (customer === null && decisions.length === 0) throw new AppError('NOT_FOUND', `no customer ${customerId} in this data set`);
    const transactionIds = [...new Set(readings(decisions).flatMap(({ facts }) => (facts.transaction?.id === undefined ? [] : [facts.transaction.id])))];
    const [transactionDocuments, reviews] = await Promise.all([read('transaction', transactionIds), this.reviews(principal, traceId, customerId, transactionIds)]);
    const transactions = present(transactionIds, transactionDocuments);
    const disputeIds = disputeIdsOf(customer, transactions.values()).slice(0, MAX_EVIDENCE_DISPUTES);
    const disputes = present(disputeIds, await read('dispute', disputeIds));
    return { status: 200, timestamp: Date.now(), data: customerEvidence({ customerId, customer, decisions, transactions, disputes, reviews }) };
  }

  /**
   * The current review of each payment, by id. Labelling stores a review before it answers the
   * request that made it, so this read needs no barrier to see the last one.
   */
  private async reviews(principal: Principal, traceId: string, subjectId: string, transactionIds: readonly string[]): Promise<Map<string, CurrentPaymentReview>> {
    const batches = [...chunks(transactionIds, MAX_PAYMENT_REVIEWS_PER_READ)];
    const replies = await Promise.all(batches.map((batch) => this.owner.send(principal, traceId, subjectId, RpcTopics.readPaymentReviewsOf, { transactionIds: batch })));
    const found = new Map<string, CurrentPaymentReview>();
    replies.forEach((reply, batch) => reply.reviews.forEach((review, k) => review !== null && found.set(batches[batch][k], review)));
    return found;
  }

  /** The stored documents of `ids`, in order (null when absent), in parallel reads of what one read takes. */
  private async documents(principal: Principal, traceId: string, subjectId: string, kind: EntityKind, ids: readonly string[]): Promise<Array<EntityDocumentMessage | null>> {
    const replies = await Promise.all(
      [...chunks(ids, MAX_ENTITY_DOCUMENTS_PER_READ)].map((batch) => this.owner.send(principal, traceId, subjectId, RpcTopics.readEntityDocuments, { refs: batch.map((entityId) => ({ kind, entityId })) })),
    );
    return replies.flatMap((reply) => reply.documents);
  }
}

function present(ids: readonly string[], documents: ReadonlyArray<EntityDocumentMessage | null>): Map<string, EntityDocumentMessage> {
  const found = new Map<string, EntityDocumentMessage>();
  ids.forEach((id, k) => {
    const document = documents[k];
    if (document !== null && document !== undefined) found.set(id, document);
  });
  return found;
}
