import {
  type CheckpointEvidenceFilter,
  type CheckpointIndicatorEvidence,
  type EvidenceFilter,
  type IndicatorEvidenceSummary,
  type IndicatorRef,
  type IndicatorSubmission,
  type KnownIndicatorQuery,
  type LookupIndicatorRepository,
  type LookupTenant,
  type RemovedIndicator,
  knownIndicatorRefs,
} from '@ringfence/lookup';

/** The table under the filter: the repository, and every reported indicator for the start. */
export interface IndicatorTable extends LookupIndicatorRepository {
  allIndicatorKeys(): Promise<IndicatorRef[]>;
}

/**
 * Every checkpoint asks whether its e-mails, phones, IPs and cards were reported as fraud, and
 * most lookups ask the same of a few values; almost always none was. For a process that is the indicators' only writer (the embedded mode) this
 * keeps every reported (kind, value) in memory, loaded at start and added to on every report
 * through it, and asks the table only about the values among them.
 *
 * The set is a superset of what is reported (a removal leaves its values in it until the next
 * start), so a value outside it has no evidence, and one inside it is answered by the table as
 * before. Memory: one string per distinct reported value.
 */
export class KnownIndicatorsFilter implements LookupIndicatorRepository {
  private constructor(
    private readonly table: IndicatorTable,
    private readonly reported: Set<string>,
  ) {}

  static async load(table: IndicatorTable): Promise<KnownIndicatorsFilter> {
    const reported = new Set((await table.allIndicatorKeys()).map(keyOf));
    return new KnownIndicatorsFilter(table, reported);
  }

  /** Distinct reported values held, for metrics and tests. */
  get size(): number {
    return this.reported.size;
  }

  async add(tenant: LookupTenant, submission: IndicatorSubmission): Promise<void> {
    // Added before the write: a checkpoint racing the report then asks the table, never misses it.
    for (const indicator of submission.indicators) this.reported.add(keyOf(indicator));
    await this.table.add(tenant, submission);
  }

  /** Only indicators with evidence are summarised, so only the reported ones are asked about. */
  async summarise(tenant: LookupTenant, indicators: readonly IndicatorRef[], filter?: EvidenceFilter): Promise<IndicatorEvidenceSummary[]> {
    const reported = indicators.filter((indicator) => this.reported.has(keyOf(indicator)));
    return reported.length === 0 ? [] : this.table.summarise(tenant, reported, filter);
  }

  async checkpointEvidence(tenant: LookupTenant, values: KnownIndicatorQuery, filter?: CheckpointEvidenceFilter): Promise<CheckpointIndicatorEvidence[]> {
    if (!knownIndicatorRefs(values).some((indicator) => this.reported.has(keyOf(indicator)))) return [];
    return this.table.checkpointEvidence(tenant, values, filter);
  }

  remove(tenant: LookupTenant, indicators: readonly IndicatorRef[]): Promise<RemovedIndicator[]> {
    return this.table.remove(tenant, indicators);
  }
}

const keyOf = ({ kind, value }: IndicatorRef): string => `${kind}\u0000${value}`;
