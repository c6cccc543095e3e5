import type {
  AddLookupIndicatorsRequest,
  DeleteLookupIndicatorsRequest,
  LookupAddedDto,
  LookupDeletedDto,
  LookupIndicatorsDto,
  ReadLookupIndicatorsRequest,
} from '@ringfence/contracts';
import type { IndicatorRef, LookupTenant } from './indicator';
import { queriedIndicators, summaryOf, toIndicatorLookup } from './indicator-lookup';
import type { IndicatorSubmission, LookupIndicatorRepository } from './lookup-indicator.repository';
import { addedValues, toSubmission } from './lookup-submission';

export interface AddedIndicators {
  answer: LookupAddedDto;
  submission: IndicatorSubmission;
}

export interface DeletedIndicators {
  answer: LookupDeletedDto;
  indicators: IndicatorRef[];
}

/**
 * The lookup use cases (ADR-0007), over the repository port: add indicators with their
 * evidence, read what is known about some, delete the account's own.
 */
export class LookupIndicators {
  constructor(private readonly repository: LookupIndicatorRepository) {}

  async add(tenant: LookupTenant, request: AddLookupIndicatorsRequest): Promise<AddedIndicators> {
    const submission = toSubmission(request);
    await this.repository.add(tenant, submission);
    const count = (kind: string) => submission.evidence.filter((item) => item.evidenceKind === kind).length;
    return {
      answer: { added: addedValues(submission.indicators), evidence: { chargebacks: count('chargeback'), manualReviews: count('manualReview') } },
      submission,
    };
  }

  async read(tenant: LookupTenant, request: ReadLookupIndicatorsRequest): Promise<LookupIndicatorsDto> {
    const indicators = queriedIndicators(request.indicators);
    const summaries = await this.repository.summarise(tenant, indicators, {
      ipSeenFrom: request.ipFromTime,
      limitIndustry: request.limitIndustry,
    });
    return Object.fromEntries(indicators.map((ref) => [ref.kind, toIndicatorLookup(ref, summaryOf(ref, summaries))]));
  }

  async delete(tenant: LookupTenant, request: DeleteLookupIndicatorsRequest): Promise<DeletedIndicators> {
    const indicators = queriedIndicators(request.indicators);
    const removed = await this.repository.remove(tenant, indicators);
    const deleted = Object.fromEntries(
      indicators.map((ref) => [ref.kind, removed.find((item) => item.kind === ref.kind && item.value === ref.value)?.evidenceRemoved ?? 0]),
    );
    return { answer: { deleted }, indicators };
  }
}
