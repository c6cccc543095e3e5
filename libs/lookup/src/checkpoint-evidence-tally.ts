import type { CheckpointIndicatorEvidence, EvidenceCounts } from './lookup-indicator.repository';
import type { EvidenceKind, IndicatorRef, LookupTenant } from './indicator';

/** One stored piece of evidence, as a checkpoint counts it: of which indicator, what kind, when. */
export interface RecordedEvidence extends IndicatorRef {
  evidenceKind: EvidenceKind;
  /** Epoch ms. */
  seenAt: number;
}

/** One account's evidence of one indicator in one data set. */
interface AccountEvidence extends EvidenceCounts {
  readonly environment: string;
  readonly accountId: string;
  lastSeen: number;
}

const COUNT_OF: Record<EvidenceKind, keyof EvidenceCounts> = { chargeback: 'chargebacks', manualReview: 'manualReviews', report: 'reports' };

/**
 * What a checkpoint asks of the lookup (`checkpointEvidence`), kept in memory: for every
 * indicator with evidence, per data set and account, the evidence counted by kind and the
 * latest time it was seen. It holds counts, not the evidence: the store decides what is new
 * (evidence sent again counts once there), and only what it stored is recorded here.
 *
 * Sound only for a process that is the store's only writer and records here every evidence it
 * stored and forgets every indicator it removed (the embedded mode). Memory: one small array per
 * reported indicator, one entry per reporting account and data set (about 330 bytes for an
 * indicator one account reported: docs/performance.md); nothing for values nobody reported.
 */
export class CheckpointEvidenceTally {
  /** Indicator → the evidence of each account and data set that has some (usually one). */
  private readonly byIndicator = new Map<string, AccountEvidence[]>();

  /** Indicators with evidence in some data set, for metrics and tests. */
  get size(): number {
    return this.byIndicator.size;
  }

  /** Counts evidence the store took (each piece once: the store leaves out what it held already). */
  record(tenant: LookupTenant, evidence: readonly RecordedEvidence[]): void {
    for (const item of evidence) {
      const key = keyOf(item);
      const accounts = this.byIndicator.get(key);
      let counts = accounts?.find((entry) => entry.accountId === tenant.accountId && entry.environment === tenant.environment);
      if (counts === undefined) {
        counts = { environment: tenant.environment, accountId: tenant.accountId, chargebacks: 0, manualReviews: 0, reports: 0, lastSeen: item.seenAt };
        // A new array of exactly the entries: \`push\` onto an empty one reserves room for seventeen.
        this.byIndicator.set(key, accounts === undefined ? [counts] : [...accounts, counts]);
      }
      counts[COUNT_OF[item.evidenceKind]] += 1;
      counts.lastSeen = Math.max(counts.lastSeen, item.seenAt);
    }
  }

  /** Forgets the tenant's evidence of these indicators (a removal takes all of it). */
  forget(tenant: LookupTenant, indicators: readonly IndicatorRef[]): void {
    for (const indicator of indicators) {
      const key = keyOf(indicator);
      const accounts = this.byIndicator.get(key);
      if (accounts === undefined) continue;
      const kept = accounts.filter((entry) => entry.accountId !== tenant.accountId || entry.environment !== tenant.environment);
      if (kept.length === 0) this.byIndicator.delete(key);
      else this.byIndicator.set(key, kept);
    }
  }

  /** Whether any account of any data set has evidence of the indicator. */
  has(indicator: IndicatorRef): boolean {
    return this.byIndicator.has(keyOf(indicator));
  }

  /**
   * `checkpointEvidence`'s answer: the asked indicators with evidence visible to the tenant, its
   * own apart from the other accounts' of its data set, of which only those `countsOther`
   * accepts are counted. Each indicator is asked once (`knownIndicatorRefs`).
   */
  evidenceFor(tenant: LookupTenant, indicators: readonly IndicatorRef[], countsOther: (accountId: string) => boolean): CheckpointIndicatorEvidence[] {
    const answers: CheckpointIndicatorEvidence[] = [];
    for (const indicator of indicators) {
      const accounts = this.byIndicator.get(keyOf(indicator));
      if (accounts === undefined) continue;
      let own: AccountEvidence | undefined;
      const otherEvidence: EvidenceCounts = { chargebacks: 0, manualReviews: 0, reports: 0 };
      let otherAccounts = 0;
      let otherLastSeen: number | null = null;
      for (const counts of accounts) {
        if (counts.environment !== tenant.environment) continue;
        if (counts.accountId === tenant.accountId) {
          own = counts;
          continue;
        }
        if (!countsOther(counts.accountId)) continue;
        otherAccounts += 1;
        otherEvidence.chargebacks += counts.chargebacks;
        otherEvidence.manualReviews += counts.manualReviews;
        otherEvidence.reports += counts.reports;
        otherLastSeen = Math.max(otherLastSeen ?? counts.lastSeen, counts.lastSeen);
      }
      if (own === undefined && otherAccounts === 0) continue;
      answers.push({
        kind: indicator.kind,
        value: indicator.value,
        own: own === undefined ? { chargebacks: 0, manualReviews: 0, reports: 0 } : { chargebacks: own.chargebacks, manualReviews: own.manualReviews, reports: own.reports },
        otherAccounts,
        otherEvidence,
        otherLastSeen,
      });
    }
    return answers;
  }
}

const keyOf = ({ kind, value }: IndicatorRef): string => `${kind}\u0000${value}`;
