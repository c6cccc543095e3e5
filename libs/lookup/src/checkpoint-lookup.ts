import type { CheckpointIndicatorEvidence, EvidenceCounts } from './lookup-indicator.repository';

/** How many distinct other accounts must have reported an indicator before it can make a checkpoint REVIEW. */
export const DEFAULT_CONSORTIUM_MIN_ACCOUNTS = 3;

/** The account settings the checkpoints' use of the lookup reads (absent: the defaults). */
export interface CheckpointLookupSettings {
  lookupConsortiumMinAccounts?: number;
  lookupLimitIndustry?: boolean;
}

export interface CheckpointLookupPolicy {
  /** Distinct other accounts needed for a REVIEW (at least 1). */
  consortiumMinAccounts: number;
  /** Count only other accounts of the asking account's industry. */
  limitIndustry: boolean;
}

export function checkpointLookupPolicy(settings: CheckpointLookupSettings): CheckpointLookupPolicy {
  const configured = settings.lookupConsortiumMinAccounts;
  return {
    consortiumMinAccounts: Number.isInteger(configured) && (configured as number) >= 1 ? (configured as number) : DEFAULT_CONSORTIUM_MIN_ACCOUNTS,
    limitIndustry: settings.lookupLimitIndustry === true,
  };
}

/**
 * What the lookup says at a checkpoint:
 * - `own`: the account itself reported one of the request's indicators (PREVENT);
 * - `consortium`: none of its own, but at least `consortiumMinAccounts` distinct other accounts
 *   reported one of them (at most REVIEW);
 * - null: nothing, or too few other accounts.
 * One account's report never blocks another account's customers.
 */
export type CheckpointLookupVerdict = 'own' | 'consortium' | null;

/** The decision event's lookup features: flat numbers, so rules and models can read them. */
export interface CheckpointLookupFeatures {
  /** Indicators of the request with any visible evidence (own or other accounts'). */
  knownFraudIndicators: number;
  /** Indicators of the request the account itself reported. */
  lookupOwnIndicators: number;
  /** Indicators of the request other accounts reported. */
  lookupConsortiumIndicators: number;
  /** The most distinct other accounts behind one of the request's indicators (0 when none). */
  lookupConsortiumAccounts: number;
  /** Other accounts' evidence of the request's indicators, by kind, summed over the indicators. */
  lookupConsortiumChargebacks: number;
  lookupConsortiumManualReviews: number;
  lookupConsortiumReports: number;
  /** Epoch ms of the other accounts' latest evidence of any of the request's indicators; null when none. */
  lookupConsortiumLastSeen: number | null;
  /** Hours from that evidence to the checkpoint's time (never negative); null when none. */
  lookupConsortiumLastSeenHoursAgo: number | null;
}

export interface CheckpointLookup {
  verdict: CheckpointLookupVerdict;
  features: CheckpointLookupFeatures;
}

const HOUR_MS = 3_600_000;
const anyEvidence = (counts: EvidenceCounts) => counts.chargebacks + counts.manualReviews + counts.reports > 0;

/** The lookup's verdict and features for a checkpoint at `nowMs` (the payload's time). */
export function checkpointLookup(evidence: readonly CheckpointIndicatorEvidence[], policy: CheckpointLookupPolicy, nowMs: number): CheckpointLookup {
  const own = evidence.filter((item) => anyEvidence(item.own));
  const shared = evidence.filter((item) => item.otherAccounts > 0);
  const consortiumAccounts = Math.max(0, ...shared.map((item) => item.otherAccounts));
  const lastSeens = shared.map((item) => item.otherLastSeen).filter((seen): seen is number => seen !== null);
  const lastSeen = lastSeens.length > 0 ? Math.max(...lastSeens) : null;
  const sum = (kind: keyof EvidenceCounts) => shared.reduce((total, item) => total + item.otherEvidence[kind], 0);
  const verdict: CheckpointLookupVerdict =
    own.length > 0 ? 'own' : consortiumAccounts >= policy.consortiumMinAccounts ? 'consortium' : null;
  return {
    verdict,
    features: {
      knownFraudIndicators: evidence.filter((item) => anyEvidence(item.own) || item.otherAccounts > 0).length,
      lookupOwnIndicators: own.length,
      lookupConsortiumIndicators: shared.length,
      lookupConsortiumAccounts: consortiumAccounts,
      lookupConsortiumChargebacks: sum('chargebacks'),
      lookupConsortiumManualReviews: sum('manualReviews'),
      lookupConsortiumReports: sum('reports'),
      lookupConsortiumLastSeen: lastSeen,
      lookupConsortiumLastSeenHoursAgo: lastSeen === null ? null : Math.round((Math.max(0, nowMs - lastSeen) / HOUR_MS) * 100) / 100,
    },
  };
}
