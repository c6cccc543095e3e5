import {
  type AccountEvidenceCounts,
  type CheckpointEvidenceFilter,
  type CheckpointIndicatorEvidence,
  type EvidenceCounts,
  type EvidenceFilter,
  type EvidenceKind,
  type IndicatorEvidenceSummary,
  type IndicatorKind,
  type IndicatorRef,
  type IndicatorSubmission,
  type KnownIndicatorQuery,
  type LookupIndicatorRepository,
  type LookupTenant,
  type RecordedEvidence,
  type RemovedIndicator,
  knownIndicatorRefs,
} from '@ringfence/lookup';
import type { Environment } from '@ringfence/contracts';
import type { DataSource } from 'typeorm';
import { bigintToNumber, queryJsonPage, queryRows } from '@ringfence/persistence';

interface SummaryRow {
  kind: IndicatorKind;
  value: string;
  chargebacks: number;
  manual_reviews: number;
  reports: number;
  own_chargebacks: number;
  own_manual_reviews: number;
  own_reports: number;
  first_seen: string;
  last_seen: string;
}

interface CheckpointEvidenceRow {
  kind: IndicatorKind;
  value: string;
  own_chargebacks: number;
  own_manual_reviews: number;
  own_reports: number;
  other_accounts: number;
  other_chargebacks: number;
  other_manual_reviews: number;
  other_reports: number;
  other_last_seen: string | null;
}

interface RemovedRow {
  kind: IndicatorKind;
  value: string;
  evidence_removed: number;
}

// Rows travel as one JSON parameter each statement: one round trip however many indicators,
// and the same SQL on PostgreSQL and PGlite.
// One statement, atomic without a transaction (which on the embedded database would hold its
// one session for a round trip per statement): the indicators are upserted in a data-modifying
// CTE, then their evidence inserted. The evidence's foreign key to its indicator is checked at
// the end of the statement, when the CTE's rows are there. `$4` is an empty array when the
// submission has no evidence. `$5` is the reporting account's industry, kept with its evidence
// (the lookup compares it under `limitIndustry`; an account's industry never changes).
const ADD_INDICATORS = `
  WITH upserted AS (
    INSERT INTO lookup_indicators (account_id, environment, kind, value, first_seen_at, last_seen_at)
    SELECT $1, $2, row.kind, row.value, row.seen_at, row.seen_at
      FROM jsonb_to_recordset($3::jsonb) AS row(kind text, value text, seen_at bigint)
    ON CONFLICT (account_id, environment, kind, value) DO UPDATE
       SET first_seen_at = LEAST(lookup_indicators.first_seen_at, EXCLUDED.first_seen_at),
           last_seen_at = GREATEST(lookup_indicators.last_seen_at, EXCLUDED.last_seen_at),
           updated_at = now()
  )
  INSERT INTO lookup_evidence (account_id, environment, kind, value, evidence_kind, evidence_id, seen_at, details, reporter_industry)
  SELECT $1, $2, row.kind, row.value, row.evidence_kind, row.evidence_id, row.seen_at, row.details, $5::text
    FROM jsonb_to_recordset($4::jsonb) AS row(kind text, value text, evidence_kind text, evidence_id text, seen_at bigint, details jsonb)
  ON CONFLICT DO NOTHING
  RETURNING kind, value, evidence_kind, seen_at`;

// Every account's evidence of the asked indicators in the asking account's data set, counted:
// the other accounts' rows are only ever aggregated, never returned. `$4` limits IP evidence
// to what was seen from that time on; `$5` counts other accounts' evidence only when its
// reporter's industry is `$6`, the asking account's (one without an industry then sees only its
// own evidence: null equals nothing).
const SUMMARISE = `
  WITH asked AS (
    SELECT DISTINCT kind, value FROM jsonb_to_recordset($3::jsonb) AS row(kind text, value text)
  )
  SELECT e.kind, e.value,
         count(*) FILTER (WHERE e.evidence_kind = 'chargeback')::int AS chargebacks,
         count(*) FILTER (WHERE e.evidence_kind = 'manualReview')::int AS manual_reviews,
         count(*) FILTER (WHERE e.evidence_kind = 'report')::int AS reports,
         count(*) FILTER (WHERE e.evidence_kind = 'chargeback' AND e.account_id = $1)::int AS own_chargebacks,
         count(*) FILTER (WHERE e.evidence_kind = 'manualReview' AND e.account_id = $1)::int AS own_manual_reviews,
         count(*) FILTER (WHERE e.evidence_kind = 'report' AND e.account_id = $1)::int AS own_reports,
         min(e.seen_at) AS first_seen,
         max(e.seen_at) AS last_seen
    FROM asked
    JOIN lookup_evidence e ON e.environment = $2 AND e.kind = asked.kind AND e.value = asked.value
   WHERE (e.kind <> 'ipAddress' OR $4::bigint IS NULL OR e.seen_at >= $4::bigint)
     AND (NOT $5::boolean OR e.account_id = $1 OR e.reporter_industry = $6::text)
   GROUP BY e.kind, e.value`;

// Scoring asks at every checkpoint, and almost always about values nobody reported: one
// statement, an index probe per asked value (`idx_lookup_evidence_indicator_seen_at`), which
// returns no row when nothing matches. The asking account's evidence is counted apart; other
// accounts' only as distinct accounts, counts and a latest time. `$5` counts other accounts'
// evidence only when its reporter's industry is `$6`, the asking account's (one without an
// industry then sees only its own evidence: null equals nothing).
const CHECKPOINT_EVIDENCE = `
  SELECT e.kind, e.value,
         count(*) FILTER (WHERE e.account_id = $1 AND e.evidence_kind = 'chargeback')::int AS own_chargebacks,
         count(*) FILTER (WHERE e.account_id = $1 AND e.evidence_kind = 'manualReview')::int AS own_manual_reviews,
         count(*) FILTER (WHERE e.account_id = $1 AND e.evidence_kind = 'report')::int AS own_reports,
         count(DISTINCT e.account_id) FILTER (WHERE e.account_id <> $1)::int AS other_accounts,
         count(*) FILTER (WHERE e.account_id <> $1 AND e.evidence_kind = 'chargeback')::int AS other_chargebacks,
         count(*) FILTER (WHERE e.account_id <> $1 AND e.evidence_kind = 'manualReview')::int AS other_manual_reviews,
         count(*) FILTER (WHERE e.account_id <> $1 AND e.evidence_kind = 'report')::int AS other_reports,
         max(e.seen_at) FILTER (WHERE e.account_id <> $1) AS other_last_seen
    FROM unnest($3::text[], $4::text[]) AS asked(kind, value)
    JOIN lookup_evidence e ON e.environment = $2 AND e.kind = asked.kind AND e.value = asked.value
   WHERE e.account_id = $1 OR NOT $5::boolean OR e.reporter_industry = $6::text
   GROUP BY e.kind, e.value`;

// One statement, so a reader never sees the indicator without its evidence or the reverse.
// The indicator's foreign key is checked at the end of the statement, when both are gone.
const REMOVE = `
  WITH asked AS (
    SELECT DISTINCT kind, value FROM jsonb_to_recordset($3::jsonb) AS row(kind text, value text)
  ),
  removed_evidence AS (
    DELETE FROM lookup_evidence e USING asked
     WHERE e.account_id = $1 AND e.environment = $2 AND e.kind = asked.kind AND e.value = asked.value
    RETURNING e.kind, e.value
  ),
  removed_indicators AS (
    DELETE FROM lookup_indicators i USING asked
     WHERE i.account_id = $1 AND i.environment = $2 AND i.kind = asked.kind AND i.value = asked.value
    RETURNING i.kind
  )
  SELECT kind, value, count(*)::int AS evidence_removed FROM removed_evidence GROUP BY kind, value`;

// Each account's evidence counts of the indicators asked about (kind, value), in both data sets,
// with the reporting account's industry, as one JSON value (`queryJsonPage`): what a sole writer reads
// for an indicator its tally does not hold (`TalliedLookupIndicatorRepository`).
const STORED_COUNTS_OF = `
  SELECT json_agg(counts) AS page FROM (
    SELECT e.environment, e.kind, e.value, e.account_id AS "accountId", e.reporter_industry AS industry,
           count(*) FILTER (WHERE e.evidence_kind = 'chargeback') AS chargebacks,
           count(*) FILTER (WHERE e.evidence_kind = 'manualReview') AS "manualReviews",
           count(*) FILTER (WHERE e.evidence_kind = 'report') AS reports,
           max(e.seen_at) AS "lastSeen"
      FROM (SELECT environment, asked.kind, asked.value
              FROM unnest($1::text[], $2::text[]) AS asked(kind, value), unnest(ARRAY['live', 'test']) AS environment) k
      JOIN lookup_evidence e ON e.environment = k.environment AND e.kind = k.kind AND e.value = k.value
     GROUP BY e.environment, e.kind, e.value, e.account_id, e.reporter_industry
     ORDER BY e.environment, e.kind, e.value, e.account_id) counts`;

// A keyset page of the stored evidence in primary-key order, as one JSON value: a sole writer's
// pass at start, which counts it (the whole table, so aggregating it here would only add sorts).
const STORED_EVIDENCE_AFTER = `
  SELECT json_agg(evidence) AS page FROM (
    SELECT account_id AS "accountId", environment, kind, value, evidence_kind AS "evidenceKind", evidence_id AS "evidenceId", seen_at AS "seenAt",
           reporter_industry AS industry
      FROM lookup_evidence
     WHERE (account_id, environment, kind, value, evidence_kind, evidence_id) > ($1, $2, $3, $4, $5, $6)
     ORDER BY account_id, environment, kind, value, evidence_kind, evidence_id
     LIMIT $7) evidence`;

interface RecordedEvidenceRow {
  kind: IndicatorKind;
  value: string;
  evidence_kind: EvidenceKind;
  seen_at: string;
}

/** One account's evidence counts of one stored indicator in one data set, and the account's industry. */
export interface StoredIndicatorCounts extends AccountEvidenceCounts, IndicatorRef {
  readonly environment: Environment;
  readonly industry: string | null;
}

/** One stored piece of evidence, whose it is: a row of the pass at start, and where the next page goes on from. */
export interface StoredEvidence extends RecordedEvidence {
  readonly accountId: string;
  readonly environment: Environment;
  readonly evidenceId: string;
  /** The reporting account's industry. */
  readonly industry: string | null;
}

/**
 * Known-fraud indicators in `lookup_indicators` and their evidence in `lookup_evidence`. Writes
 * and deletes touch only the tenant's rows; reads aggregate the other accounts' evidence of the
 * same data set into counts.
 */
export class TypeOrmLookupIndicatorRepository implements LookupIndicatorRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Up to `limit` stored pieces of evidence after `after` (from the first when null), in primary-key order: a sole writer's pass at start. */
  storedEvidenceAfter(after: StoredEvidence | null, limit: number): Promise<StoredEvidence[]> {
    const from = after ?? { accountId: '', environment: '', kind: '', value: '', evidenceKind: '', evidenceId: '' };
    return queryJsonPage<StoredEvidence>(this.dataSource, STORED_EVIDENCE_AFTER, [from.accountId, from.environment, from.kind, from.value, from.evidenceKind, from.evidenceId, limit]);
  }

  /** The evidence counts of these indicators, every account's in both data sets: a sole writer's read of what it does not hold. */
  storedCountsOf(indicators: readonly IndicatorRef[]): Promise<StoredIndicatorCounts[]> {
    if (indicators.length === 0) return Promise.resolve([]);
    return queryJsonPage<StoredIndicatorCounts>(this.dataSource, STORED_COUNTS_OF, [indicators.map(({ kind }) => kind), indicators.map(({ value }) => value)]);
  }

  async add(tenant: LookupTenant, submission: IndicatorSubmission): Promise<void> {
    await this.record(tenant, submission);
  }

  /** `add`, answering the evidence it stored: none that was stored before (same id). */
  async record({ accountId, environment, industry }: LookupTenant, submission: IndicatorSubmission): Promise<RecordedEvidence[]> {
    const indicators = mergeSightings(submission.indicators);
    const evidence = indicators.flatMap(({ kind, value, seen_at }) =>
      submission.evidence.map((item) => ({
        kind,
        value,
        evidence_kind: item.evidenceKind,
        evidence_id: item.evidenceId,
        seen_at,
        details: item.details,
      })),
    );
    const stored = await queryRows<RecordedEvidenceRow>(this.dataSource, ADD_INDICATORS, [accountId, environment, JSON.stringify(indicators), JSON.stringify(evidence), industry]);
    return stored.map(toRecordedEvidence);
  }

  async summarise(
    { accountId, environment, industry }: LookupTenant,
    indicators: readonly IndicatorRef[],
    filter: EvidenceFilter = {},
  ): Promise<IndicatorEvidenceSummary[]> {
    if (indicators.length === 0) return [];
    const rows = await queryRows<SummaryRow>(this.dataSource, SUMMARISE, [
      accountId,
      environment,
      JSON.stringify(indicators.map(({ kind, value }) => ({ kind, value }))),
      filter.ipSeenFrom ?? null,
      filter.limitIndustry ?? false,
      industry,
    ]);
    return rows.map(toSummary);
  }

  async checkpointEvidence(
    { accountId, environment, industry }: LookupTenant,
    values: KnownIndicatorQuery,
    filter: CheckpointEvidenceFilter = {},
  ): Promise<CheckpointIndicatorEvidence[]> {
    const indicators = knownIndicatorRefs(values);
    if (indicators.length === 0) return [];
    const rows = await queryRows<CheckpointEvidenceRow>(this.dataSource, CHECKPOINT_EVIDENCE, [
      accountId,
      environment,
      indicators.map((indicator) => indicator.kind),
      indicators.map((indicator) => indicator.value),
      filter.limitIndustry ?? false,
      industry,
    ]);
    return rows.map(toCheckpointEvidence);
  }

  async remove({ accountId, environment }: LookupTenant, indicators: readonly IndicatorRef[]): Promise<RemovedIndicator[]> {
    if (indicators.length === 0) return [];
    const rows = await queryRows<RemovedRow>(this.dataSource, REMOVE, [
      accountId,
      environment,
      JSON.stringify(indicators.map(({ kind, value }) => ({ kind, value }))),
    ]);
    return rows.map((row) => ({ kind: row.kind, value: row.value, evidenceRemoved: row.evidence_removed }));
  }
}

/** One row per indicator (an upsert may not touch a row twice), spanning all its sightings. */
function mergeSightings(sightings: IndicatorSubmission['indicators']) {
  const byKey = new Map<string, { kind: IndicatorKind; value: string; seen_at: number }>();
  for (const { kind, value, seenAt } of sightings) {
    const key = `${kind}\u0000${value}`;
    const known = byKey.get(key);
    byKey.set(key, { kind, value, seen_at: known === undefined ? seenAt : Math.min(known.seen_at, seenAt) });
  }
  return [...byKey.values()];
}

function toRecordedEvidence(row: RecordedEvidenceRow): RecordedEvidence {
  return { kind: row.kind, value: row.value, evidenceKind: row.evidence_kind, seenAt: bigintToNumber(row.seen_at) };
}

function toSummary(row: SummaryRow): IndicatorEvidenceSummary {
  const own: EvidenceCounts = { chargebacks: row.own_chargebacks, manualReviews: row.own_manual_reviews, reports: row.own_reports };
  return {
    kind: row.kind,
    value: row.value,
    chargebacks: row.chargebacks,
    manualReviews: row.manual_reviews,
    reports: row.reports,
    own,
    firstSeen: bigintToNumber(row.first_seen),
    lastSeen: bigintToNumber(row.last_seen),
  };
}

function toCheckpointEvidence(row: CheckpointEvidenceRow): CheckpointIndicatorEvidence {
  return {
    kind: row.kind,
    value: row.value,
    own: { chargebacks: row.own_chargebacks, manualReviews: row.own_manual_reviews, reports: row.own_reports },
    otherAccounts: row.other_accounts,
    otherEvidence: { chargebacks: row.other_chargebacks, manualReviews: row.other_manual_reviews, reports: row.other_reports },
    otherLastSeen: row.other_last_seen === null ? null : bigintToNumber(row.other_last_seen),
  };
}
