import type { CheckpointIndicatorEvidence, EvidenceCounts } from './lookup-indicator.repository';
import type { EvidenceKind, IndicatorRef, LookupTenant } from './indicator';

/** One stored piece of evidence, as a checkpoint counts it: of which indicator, what kind, when. */
export interface RecordedEvidence extends IndicatorRef {
  evidenceKind: EvidenceKind;
  /** Epoch ms. */
  seenAt: number;
}

/** One account's evidence of one indicator in one data set, as the tally counts it. */
export interface AccountEvidenceCounts extends EvidenceCounts {
  readonly environment: string;
  readonly accountId: string;
  /** Epoch ms of the latest evidence. */
  lastSeen: number;
}

const COUNT_OF: Record<EvidenceKind, keyof EvidenceCounts> = { chargeback: 'chargebacks', manualReview: 'manualReviews', report: 'reports' };

/**
 * What a checkpoint asks of the lookup (`checkpointEvidence`), kept in memory: for the
 * indicators it holds, per data set and account, the evidence counted by kind and the latest
 * time it was seen. It holds counts, not the evidence: the store decides what is new (evidence
 * sent again counts once there), and only what it stored is recorded here.
 *
 * The tally holds an indicator's complete count or nothing of it. It holds at most `capacity`
 * indicators, and lets go of the one least recently recorded or asked about to take another, so
 * its memory is bounded however many values are reported. An indicator it does not hold may
 * have evidence in the store: its owner reads the count from there and `admit`s it. Evidence of
 * an indicator not held is not counted (the count would be partial), except from `start`: an
 * indicator that has no evidence anywhere yet is held from its first.
 *
 * Sound only for a process that is the store's only writer and records here every evidence it
 * stored and forgets every indicator it removed (the embedded mode). Memory: one small array per
 * held indicator, one entry per reporting account and data set (about 330 bytes for an
 * indicator one account reported: docs/performance.md); nothing for values nobody reported.
 */
export class CheckpointEvidenceTally {
  /**
   * Indicator → the evidence of each account and data set that has some (usually one; none for
   * an indicator without evidence: read so from the store, or all of it removed). In order of
   * use, least recent first.
   */
  private readonly byIndicator = new Map<string, AccountEvidenceCounts[]>();

  constructor(private readonly capacity = Number.POSITIVE_INFINITY) {}

  /** Indicators held, for metrics and tests. */
  get size(): number {
    return this.byIndicator.size;
  }

  /** Whether the tally holds the indicator's complete count (which may be none). */
  holds(indicator: IndicatorRef): boolean {
    return this.byIndicator.has(indicatorKey(indicator));
  }

  /** Whether any account of any data set has evidence of the indicator, among those held. */
  has(indicator: IndicatorRef): boolean {
    return (this.byIndicator.get(indicatorKey(indicator))?.length ?? 0) > 0;
  }

  /** Holds an indicator that has no evidence in the store yet, so that its first is counted. */
  start(indicator: IndicatorRef): void {
    if (!this.holds(indicator)) this.hold(indicatorKey(indicator), []);
  }

  /** Holds the indicator's complete count, as read from the store. */
  admit(indicator: IndicatorRef, accounts: readonly AccountEvidenceCounts[]): void {
    this.hold(indicatorKey(indicator), accounts.map((counts) => ({ ...counts })));
  }

  /** Counts evidence the store took (each piece once: the store leaves out what it held already) of the indicators held. */
  record(tenant: LookupTenant, evidence: readonly RecordedEvidence[]): void {
    for (const item of evidence) {
      const key = indicatorKey(item);
      const accounts = this.byIndicator.get(key);
      if (accounts === undefined) continue;
      let counts = accounts.find((entry) => entry.accountId === tenant.accountId && entry.environment === tenant.environment);
      if (counts === undefined) {
        counts = { environment: tenant.environment, accountId: tenant.accountId, chargebacks: 0, manualReviews: 0, reports: 0, lastSeen: item.seenAt };
        // A new array of exactly the entries: `push` onto an empty one reserves room for seventeen.
        this.hold(key, [...accounts, counts]);
      } else {
        this.touch(key, accounts);
      }
      counts[COUNT_OF[item.evidenceKind]] += 1;
      counts.lastSeen = Math.max(counts.lastSeen, item.seenAt);
    }
  }

  /** Forgets the tenant's evidence of these indicators (a removal takes all of it). */
  forget(tenant: LookupTenant, indicators: readonly IndicatorRef[]): void {
    for (const indicator of indicators) {
      const key = indicatorKey(indicator);
      const accounts = this.byIndicator.get(key);
      if (accounts === undefined) continue;
      // Held on, with whatever evidence is left (maybe none): the count stays complete.
      this.byIndicator.set(key, accounts.filter((entry) => entry.accountId !== tenant.accountId || entry.environment !== tenant.environment));
    }
  }

  /**
   * `checkpointEvidence`'s answer: the asked indicators with evidence visible to the tenant, its
   * own apart from the other accounts' of its data set, of which only those `countsOther`
   * accepts are counted. Each indicator is asked once (`knownIndicatorRefs`).
   */
  evidenceFor(tenant: LookupTenant, indicators: readonly IndicatorRef[], countsOther: (accountId: string) => boolean): CheckpointIndicatorEvidence[] {
    const answers: CheckpointIndicatorEvidence[] = [];
    for (const indicator of indicators) {
      const key = indicatorKey(indicator);
      const accounts = this.byIndicator.get(key);
      if (accounts === undefined) continue;
      this.touch(key, accounts);
      let own: AccountEvidenceCounts | undefined;
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

  /** Holds `accounts` as the key's count, the most recently used, and lets go of the least recently used past the capacity. */
  private hold(key: string, accounts: AccountEvidenceCounts[]): void {
    this.byIndicator.delete(key);
    this.byIndicator.set(key, accounts);
    if (this.byIndicator.size > this.capacity) this.byIndicator.delete(this.byIndicator.keys().next().value as string);
  }

  /** Marks the key as the most recently used (a Map keeps insertion order). */
  private touch(key: string, accounts: AccountEvidenceCounts[]): void {
    this.byIndicator.delete(key);
    this.byIndicator.set(key, accounts);
  }
}

/** The one key of an indicator, whatever holds it (the tally, its owner's filter of stored indicators). */
export const indicatorKey = ({ kind, value }: IndicatorRef): string => `${kind}\u0000${value}`;
