import type { EvidenceKind, IndicatorRef, LookupTenant } from './indicator';

/** An indicator as one POST reported it: when it was seen (epoch ms). */
export interface IndicatorSighting extends IndicatorRef {
  seenAt: number;
}

/**
 * One piece of evidence. Its id makes it count once however often it is sent: the
 * chargebackId or reviewId, else a digest of its content; a bare report's id is `report`.
 */
export interface EvidenceItem {
  evidenceKind: EvidenceKind;
  evidenceId: string;
  /** The chargeback or review as sent; stored for the account, never shown to other accounts. */
  details: Record<string, unknown>;
}

/** What one POST records: every evidence item applies to every indicator. */
export interface IndicatorSubmission {
  indicators: IndicatorSighting[];
  evidence: EvidenceItem[];
}

export interface EvidenceCounts {
  chargebacks: number;
  manualReviews: number;
  reports: number;
}

/**
 * The evidence about one indicator visible to an account: its own and, in aggregate, the other
 * accounts' of the same data set. Only indicators with some visible evidence are summarised.
 */
export interface IndicatorEvidenceSummary extends IndicatorRef, EvidenceCounts {
  /** The asking account's share of the counts. */
  own: EvidenceCounts;
  /** Epoch ms of the earliest and the latest visible evidence. */
  firstSeen: number;
  lastSeen: number;
}

export interface EvidenceFilter {
  /** IP-address evidence seen before this time (epoch ms) is left out. */
  ipSeenFrom?: number;
  /** Other accounts' evidence counts only when their industry equals the asking account's. */
  limitIndustry?: boolean;
}

/** The values the scoring service asks about, each normalised as `normalise-indicator.ts` does. */
export interface KnownIndicatorQuery {
  emails?: readonly string[];
  phones?: readonly string[];
  ips?: readonly string[];
  instrumentIds?: readonly string[];
}

/**
 * What a checkpoint may know about one of its indicators: the asking account's own evidence in
 * full, and the other accounts' only as a count of distinct accounts, their evidence by kind
 * and when they last saw it. Only indicators with some such evidence are answered.
 */
export interface CheckpointIndicatorEvidence extends IndicatorRef {
  /** The asking account's own evidence (same account, same data set). */
  own: EvidenceCounts;
  /** Distinct other accounts of the data set (of the asking account's industry, when limited) with evidence. */
  otherAccounts: number;
  /** Those accounts' evidence, counted by kind. */
  otherEvidence: EvidenceCounts;
  /** Epoch ms of those accounts' latest evidence; null when there is none. */
  otherLastSeen: number | null;
}

export interface CheckpointEvidenceFilter {
  /** Other accounts' evidence counts only when their industry equals the asking account's. */
  limitIndustry?: boolean;
}

/** One evidence count per indicator the account removed. */
export interface RemovedIndicator extends IndicatorRef {
  evidenceRemoved: number;
}

/**
 * Known-fraud indicators and their evidence, per account and data set. Every method takes the
 * tenant: an account reads other accounts' evidence only as counts, and only in its own data
 * set (sandbox and live never mix); it writes and deletes only its own.
 */
export interface LookupIndicatorRepository {
  /** Records the indicators and evidence; evidence already recorded (same id) counts once. */
  add(tenant: LookupTenant, submission: IndicatorSubmission): Promise<void>;
  /** Summaries of the asked indicators that have visible evidence, in no particular order. */
  summarise(tenant: LookupTenant, indicators: readonly IndicatorRef[], filter?: EvidenceFilter): Promise<IndicatorEvidenceSummary[]>;
  /**
   * The scoring service's question at a checkpoint: which of these values have evidence, the
   * account's own apart from the other accounts'. One indexed statement, also when nothing is known.
   */
  checkpointEvidence(tenant: LookupTenant, values: KnownIndicatorQuery, filter?: CheckpointEvidenceFilter): Promise<CheckpointIndicatorEvidence[]>;
  /** Removes the account's own records of these indicators and their evidence. */
  remove(tenant: LookupTenant, indicators: readonly IndicatorRef[]): Promise<RemovedIndicator[]>;
}

export const LOOKUP_INDICATOR_REPOSITORY = Symbol('LookupIndicatorRepository');

/** The `checkpointEvidence` arguments as indicator references, each (kind, value) once. */
export function knownIndicatorRefs(values: KnownIndicatorQuery): IndicatorRef[] {
  const refs = [
    ...(values.emails ?? []).map((value) => ({ kind: 'email' as const, value })),
    ...(values.phones ?? []).map((value) => ({ kind: 'telephone' as const, value })),
    ...(values.ips ?? []).map((value) => ({ kind: 'ipAddress' as const, value })),
    ...(values.instrumentIds ?? []).map((value) => ({ kind: 'instrumentId' as const, value })),
  ];
  const seen = new Set<string>();
  return refs.filter(({ kind, value }) => {
    const key = `${kind}\u0000${value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
