import { Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import { type CustomerTagsResponseDto, RpcTopics } from '@ringfence/contracts';
import { OwnerRequests } from '../owner-requests.service';
import { RateLimits } from '../rate-limit/rate-limits.service';
import { customerTagsView } from './customer-tags-view';

/**
 * GET /v2/tag/customer/{customerId}: the customer's stored tags from ingestion (the entity read
 * of GET /v2/customer/{customerId}, answered only once the `ingestion` group has handled the
 * account's earlier events, `consistentWith` on the bus) and its label from labelling (which
 * applies a label before answering its POST). So a tag set or removed, or a label applied,
 * by a request answered 2xx shows on the very next read (ADR-0010), for the key's account and
 * data set only. One request against the account's rate limit, two asks in parallel.
 */
@Injectable()
export class CustomerTagsUseCase {
  constructor(
    private readonly owner: OwnerRequests,
    private readonly limits: RateLimits,
  ) {}

  async read(principal: Principal, customerId: string, traceId: string): Promise<CustomerTagsResponseDto> {
    await this.limits.refuseWhenAccountLimited(principal);
    const [{ documents }, { labels }] = await Promise.all([
      this.owner.send(principal, traceId, customerId, RpcTopics.readEntityDocuments, { refs: [{ kind: 'customer', entityId: customerId }] }),
      this.owner.send(principal, traceId, customerId, RpcTopics.readLabels, { subjectKind: 'customer', subjectId: customerId }),
    ]);
    return customerTagsView(customerId, documents[0]?.fields.tags, labels);
  }
}
