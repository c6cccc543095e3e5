import {
  type AccountEvidenceCounts,
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
  indicatorKey,
  knownIndicatorRefs,
} from '@ringfence/lookup';
import { OvertakenReads } from '@ringfence/persistence';
import { StoredKeysFilter } from '@ringfence/persistence';
import type { StoredEvidence, StoredIndicatorCounts } from './typeorm-lookup-indicator.repository';

/** The table under the tally: the repository, the evidence it stores, and its counts (with the reporters' industries). */
export interface IndicatorTable extends LookupIndicatorRepository {
  record(tenant: LookupTenant, submission: IndicatorSubmission): Promise<RecordedEvidence[]>;
  storedEvidenceAfter(after: StoredEvidence | null, limit: number): Promise<StoredEvidence[]>;
  storedCountsOf(indicators: readonly IndicatorRef[]): Promise<StoredIndicatorCounts[]>;
}

/** Stored pieces of evidence read per page at start. */
const LOAD_PAGE = 10_000;

/**
 * Every checkpoint asks whether its e-mails, phones, IPs and cards have known-fraud evidence
 * (`checkpointEvidence`). For a process that is the indicators' only writer (the embedded mode),
 * this answers from a count in memory (`CheckpointEvidenceTally`) of up to `capacity`
 * indicators: loaded at start from the table, added to with what each report stored, cut by each
 * removal. Beside it, a Bloom filter of every indicator the table has evidence of
 * (`StoredKeysFilter`) tells which of the others may have some.
 *
 * So a checkpoint reads nothing from the database about values nobody reported, nor about
 * reported values the tally holds. It reads the table only for a reported value the tally let go
 * of (past its capacity, least recently used first), and then holds its count again. The
 * industries `limitIndustry` compares are the asking tenant's (from the request) and the
 * reporters' (stored with their evidence, learnt with the counts). A read that a report or removal of the same indicator overtook still answers its checkpoint, but
 * its count is not held (`OvertakenReads`): it may lack that report's evidence, or count it a
 * second time.
 *
 * Lookups (`summarise`) still read the table, asked only about indicators that may have evidence.
 */
export class TalliedLookupIndicatorRepository implements LookupIndicatorRepository {
  /**
   * The industry of every account whose evidence is counted: read with its evidence (at start, or
   * with the counts of an indicator read back) or learnt from its report. One entry per account
   * that ever reported; an account's industry never changes.
   */
  private readonly industries = new Map<string, string | null>();
  /** Every indicator with evidence in the table (and some without: removed ones, false positives). */
  private readonly stored = new StoredKeysFilter();
  private readonly overtaken = new OvertakenReads();

  private constructor(
    private readonly table: IndicatorTable,
    private readonly tally: CheckpointEvidenceTally,
  ) {}

  /**
   * Reads every stored indicator into the filter and the counts of the first `capacity` (in the
   * table's key order) into the tally, at most `capacityPerAccount` held for each account that
   * reported them (ADR-0016); the others are read when a checkpoint asks.
   */
  static async load(table: IndicatorTable, capacity = Number.POSITIVE_INFINITY, capacityPerAccount = capacity): Promise<TalliedLookupIndicatorRepository> {
    const repository = new TalliedLookupIndicatorRepository(table, new CheckpointEvidenceTally(capacity, capacityPerAccount));
    const { tally, stored, industries } = repository;
    for (let after: StoredEvidence | null = null; ; ) {
      const page = await table.storedEvidenceAfter(after, LOAD_PAGE);
      if (page.length === 0) break;
      for (const evidence of page) {
        stored.add(indicatorKey(evidence));
        industries.set(evidence.accountId, evidence.industry);
        // An indicator's evidence is all counted once it is held: it is held from its first row,
        // for that row's account, while the account and the tally have room, and never let go of
        // during the load.
        if (!tally.holds(evidence) && tally.hasRoomFor(evidence.accountId)) tally.start(evidence.accountId, evidence);
        tally.countStored(evidence, [evidence]);
      }
      after = page[page.length - 1];
    }
    return repository;
  }

  /** Indicators whose counts are held in memory, for metrics and tests. */
  get size(): number {
    return this.tally.size;
  }

  async add(tenant: LookupTenant, submission: IndicatorSubmission): Promise<void> {
    // Known before its evidence is counted: a checkpoint limited to an industry compares it.
    this.industries.set(tenant.accountId, tenant.industry);
    const recorded = await this.written(
      submission.indicators.map(indicatorKey),
      () => this.table.record(tenant, submission),
    );
    // An indicator the table had no evidence of before is held from its first; the evidence of
    // one the table has but the tally let go of is counted when it is read again.
    for (const evidence of recorded) if (!this.tally.holds(evidence) && !this.stored.mightContain(indicatorKey(evidence))) this.tally.start(tenant.accountId, evidence);
    this.tally.record(tenant, recorded);
    for (const evidence of recorded) this.stored.add(indicatorKey(evidence));
  }

  /** Only indicators that may have evidence are summarised, so only those are asked about. */
  async summarise(tenant: LookupTenant, indicators: readonly IndicatorRef[], filter?: EvidenceFilter): Promise<IndicatorEvidenceSummary[]> {
    const mayHaveEvidence = indicators.filter((indicator) => (this.tally.holds(indicator) ? this.tally.has(indicator) : this.stored.mightContain(indicatorKey(indicator))));
    return mayHaveEvidence.length === 0 ? [] : this.table.summarise(tenant, mayHaveEvidence, filter);
  }

  async checkpointEvidence(tenant: LookupTenant, values: KnownIndicatorQuery, filter: CheckpointEvidenceFilter = {}): Promise<CheckpointIndicatorEvidence[]> {
    const asked = knownIndicatorRefs(values);
    // As the table compares them: an account without an industry shares it with nobody.
    const { industry } = tenant;
    const countsOther = filter.limitIndustry ? (other: string) => industry !== null && this.industries.get(other) === industry : () => true;
    // Answered from the tally before any read, whose counts may take a held indicator's place.
    const answers = new Map<IndicatorRef, CheckpointIndicatorEvidence | undefined>();
    const unheld: IndicatorRef[] = [];
    for (const indicator of asked) {
      if (this.tally.holds(indicator)) answers.set(indicator, this.tally.evidenceFor(tenant, [indicator], countsOther)[0]);
      else if (this.stored.mightContain(indicatorKey(indicator))) unheld.push(indicator);
    }
    if (unheld.length > 0) {
      const read = await this.readCounts(tenant, unheld);
      for (const indicator of unheld) answers.set(indicator, read.evidenceFor(tenant, [indicator], countsOther)[0]);
    }
    return asked.flatMap((indicator) => answers.get(indicator) ?? []);
  }

  async remove(tenant: LookupTenant, indicators: readonly IndicatorRef[]): Promise<RemovedIndicator[]> {
    const removed = await this.written(indicators.map(indicatorKey), () => this.table.remove(tenant, indicators));
    this.tally.forget(tenant, indicators);
    return removed;
  }

  /** Runs a write of these indicators, marking the reads of them it overtakes. */
  private async written<T>(keys: readonly string[], write: () => Promise<T>): Promise<T> {
    this.overtaken.beginWrite(keys);
    try {
      return await write();
    } finally {
      this.overtaken.endWrite(keys);
    }
  }

  /** Reads the counts of indicators the tally does not hold, answers them, and holds those no write overtook. */
  private async readCounts(tenant: LookupTenant, indicators: readonly IndicatorRef[]): Promise<CheckpointEvidenceTally> {
    const keys = indicators.map(indicatorKey);
    const read = this.overtaken.beginRead(keys);
    let rows: StoredIndicatorCounts[];
    try {
      rows = await this.table.storedCountsOf(indicators);
    } finally {
      this.overtaken.endRead(keys, read);
    }
    const counts = new Map<string, AccountEvidenceCounts[]>(keys.map((key) => [key, []]));
    for (const row of rows) {
      this.industries.set(row.accountId, row.industry);
      counts.get(indicatorKey(row))?.push(accountCounts(row));
    }
    const answered = new CheckpointEvidenceTally();
    indicators.forEach((indicator, index) => {
      const accounts = counts.get(keys[index]) ?? [];
      answered.admit(tenant.accountId, indicator, accounts);
      if (!read.overtaken.has(keys[index])) this.tally.admit(tenant.accountId, indicator, accounts);
    });
    return answered;
  }
}

const accountCounts = ({ environment, accountId, chargebacks, manualReviews, reports, lastSeen }: StoredIndicatorCounts): AccountEvidenceCounts => ({
  environment,
  accountId,
  chargebacks,
  manualReviews,
  reports,
  lastSeen,
});
