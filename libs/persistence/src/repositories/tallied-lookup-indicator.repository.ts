import {
  type CheckpointEvidenceFilter,
  type CheckpointIndicatorEvidence,
  CheckpointEvidenceTally,
  type EvidenceFilter,
  type IndicatorEvidenceSummary,
  type IndicatorRef,
  type IndicatorSubmission,
  type KnownIndicatorQuery,
  type LookupIndicatorRepository,
  type LookupTenant,
  type RecordedEvidence,
  type RemovedIndicator,
  knownIndicatorRefs,
} from '@ringfence/lookup';
import type { TenantEvidence } from './typeorm-lookup-indicator.repository';

/** The table under the tally: the repository, the evidence it stores, and accounts' industries. */
export interface IndicatorTable extends LookupIndicatorRepository {
  record(tenant: LookupTenant, submission: IndicatorSubmission): Promise<RecordedEvidence[]>;
  allEvidence(): Promise<TenantEvidence[]>;
  industryOf(accountId: string): Promise<string | null>;
}

/**
 * Every checkpoint asks whether its e-mails, phones, IPs and cards have known-fraud evidence
 * (`checkpointEvidence`). For a process that is the indicators' only writer (the embedded mode),
 * this answers from a count in memory (`CheckpointEvidenceTally`): loaded at start from the
 * table, added to with what each report stored, cut by each removal. A checkpoint reads nothing
 * from the database, also about reported values, except, once per account for the life of the
 * process, the asking account's industry when the account limits the evidence to its industry
 * and has reported nothing itself (an account's industry never changes).
 *
 * Lookups (`summarise`) still read the table, asked only about indicators that have evidence.
 */
export class TalliedLookupIndicatorRepository implements LookupIndicatorRepository {
  /** The industry of every account with evidence in the tally, and of accounts that asked. */
  private readonly industries = new Map<string, string | null>();

  private constructor(
    private readonly table: IndicatorTable,
    private readonly tally: CheckpointEvidenceTally,
  ) {}

  static async load(table: IndicatorTable): Promise<TalliedLookupIndicatorRepository> {
    const repository = new TalliedLookupIndicatorRepository(table, new CheckpointEvidenceTally());
    for (const { tenant, industry, evidence } of await table.allEvidence()) {
      repository.industries.set(tenant.accountId, industry);
      repository.tally.record(tenant, [evidence]);
    }
    return repository;
  }

  /** Indicators with evidence held in memory, for metrics and tests. */
  get size(): number {
    return this.tally.size;
  }

  async add(tenant: LookupTenant, submission: IndicatorSubmission): Promise<void> {
    // Known before its evidence is counted: a checkpoint limited to its industry reads it from here.
    await this.industryOf(tenant.accountId);
    this.tally.record(tenant, await this.table.record(tenant, submission));
  }

  /** Only indicators with evidence are summarised, so only those are asked about. */
  async summarise(tenant: LookupTenant, indicators: readonly IndicatorRef[], filter?: EvidenceFilter): Promise<IndicatorEvidenceSummary[]> {
    const withEvidence = indicators.filter((indicator) => this.tally.has(indicator));
    return withEvidence.length === 0 ? [] : this.table.summarise(tenant, withEvidence, filter);
  }

  async checkpointEvidence(tenant: LookupTenant, values: KnownIndicatorQuery, filter: CheckpointEvidenceFilter = {}): Promise<CheckpointIndicatorEvidence[]> {
    const indicators = knownIndicatorRefs(values).filter((indicator) => this.tally.has(indicator));
    if (indicators.length === 0) return [];
    if (!filter.limitIndustry) return this.tally.evidenceFor(tenant, indicators, () => true);
    // As the table compares them: an account without an industry shares it with nobody.
    const industry = await this.industryOf(tenant.accountId);
    return this.tally.evidenceFor(tenant, indicators, (other) => industry !== null && this.industries.get(other) === industry);
  }

  async remove(tenant: LookupTenant, indicators: readonly IndicatorRef[]): Promise<RemovedIndicator[]> {
    const removed = await this.table.remove(tenant, indicators);
    this.tally.forget(tenant, indicators);
    return removed;
  }

  /** The account's industry, read once (it never changes). */
  private async industryOf(accountId: string): Promise<string | null> {
    const known = this.industries.get(accountId);
    if (known !== undefined || this.industries.has(accountId)) return known ?? null;
    const industry = await this.table.industryOf(accountId);
    this.industries.set(accountId, industry);
    return industry;
  }
}
