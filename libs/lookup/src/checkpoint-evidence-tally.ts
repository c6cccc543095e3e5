import { AccountShareLru } from '@ringfence/platform';
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
 * The tally holds an indicator's complete count or nothing of it. Its memory is bounded however
 * many values are reported, and shared fairly (ADR-0016): an indicator is held for each
 * account whose checkpoint asked about it or that recorded evidence of it (one count, whatever
 * the accounts holding it), at most `capacityPerAccount` per account and `capacity` holdings in
 * all; an account past either lets go of the indicator it least recently recorded or asked
 * about, which is dropped once no account holds it. So one account asking about a flood of new
 * values never lets go of what another account holds. An indicator it does not hold may
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
   * an indicator without evidence: read so from the store, or all of it removed).
   */
  private readonly byIndicator = new Map<string, AccountEvidenceCounts[]>();
  /** Indicator → how many accounts hold it. */
  private readonly holders = new Map<string, number>();
  /** Each account's holdings (`account SEP indicator` → indicator), in order of use. */
  private readonly holdings: AccountShareLru<string, string>;

  constructor(capacity = Number.POSITIVE_INFINITY, capacityPerAccount = capacity) {
    this.holdings = new AccountShareLru({
      max: capacity,
      maxPerAccount: capacityPerAccount,
      accountOf: (holding) => holding.slice(0, holding.indexOf(HOLDING_SEPARATOR)),
      onEvict: (_holding, key) => this.release(key),
    });
  }

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

  /** Holds, for `holder` (an account id), an indicator that has no evidence in the store yet, so that its first is counted. */
  start(holder: string, indicator: IndicatorRef): void {
    if (!this.holds(indicator)) this.hold(holder, indicatorKey(indicator), []);
  }

  /** Holds, for `holder` (the account whose checkpoint asked), the indicator's complete count, as read from the store. */
  admit(holder: string, indicator: IndicatorRef, accounts: readonly AccountEvidenceCounts[]): void {
    this.hold(holder, indicatorKey(indicator), accounts.map((counts) => ({ ...counts })));
  }

  /**
   * Counts evidence the store took (each piece once: the store leaves out what it held already)
   * of the indicators held, and holds each for the tenant's account.
   */
  record(tenant: LookupTenant, evidence: readonly RecordedEvidence[]): void {
    for (const key of this.count(tenant, evidence)) this.holdFor(tenant.accountId, key);
  }

  /**
   * At start: counts stored evidence of the indicators held, holding none of them for another
   * account. A load lets go of nothing (`hasRoomFor` before `start`): an indicator let go of and
   * started again later in the load would miss the evidence counted before.
   */
  countStored(tenant: LookupTenant, evidence: readonly RecordedEvidence[]): void {
    this.count(tenant, evidence);
  }

  /** Whether `holder` can hold one more indicator without letting go of any. */
  hasRoomFor(holder: string): boolean {
    return this.holdings.hasRoomFor(holder);
  }

  /** Counts the evidence of the indicators held; answers their keys. */
  private count(tenant: LookupTenant, evidence: readonly RecordedEvidence[]): string[] {
    const counted: string[] = [];
    for (const item of evidence) {
      const key = indicatorKey(item);
      const accounts = this.byIndicator.get(key);
      if (accounts === undefined) continue;
      let counts = accounts.find((entry) => entry.accountId === tenant.accountId && entry.environment === tenant.environment);
      if (counts === undefined) {
        counts = { environment: tenant.environment, accountId: tenant.accountId, chargebacks: 0, manualReviews: 0, reports: 0, lastSeen: item.seenAt };
        // A new array of exactly the entries: `push` onto an empty one reserves room for seventeen.
        this.byIndicator.set(key, [...accounts, counts]);
      }
      counts[COUNT_OF[item.evidenceKind]] += 1;
      counts.lastSeen = Math.max(counts.lastSeen, item.seenAt);
      counted.push(key);
    }
    return counted;
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
      this.holdFor(tenant.accountId, key);
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

  /** Holds `accounts` as the key's count, for `holder`. */
  private hold(holder: string, key: string, accounts: AccountEvidenceCounts[]): void {
    this.byIndicator.set(key, accounts);
    this.holdFor(holder, key);
  }

  /**
   * Makes the key the holder's most recently used, letting go of the holder's least recently
   * used past its share or the capacity. A holder with no room at all (the tally full of
   * others' holdings) holds nothing: the key is dropped unless another account holds it.
   */
  private holdFor(holder: string, key: string): void {
    const holding = `${holder}${HOLDING_SEPARATOR}${key}`;
    if (this.holdings.get(holding) !== undefined) return;
    this.holdings.set(holding, key);
    if (this.holdings.has(holding)) this.holders.set(key, (this.holders.get(key) ?? 0) + 1);
    else if (!this.holders.has(key)) this.byIndicator.delete(key);
  }

  /** One account let go of the key: dropped once none holds it. */
  private release(key: string): void {
    const holders = (this.holders.get(key) ?? 1) - 1;
    if (holders > 0) {
      this.holders.set(key, holders);
      return;
    }
    this.holders.delete(key);
    this.byIndicator.delete(key);
  }
}

/** Between the account and the indicator of a holding: account ids hold no control characters. */
const HOLDING_SEPARATOR = '\u0001';

/** The one key of an indicator, whatever holds it (the tally, its owner's filter of stored indicators). */
export const indicatorKey = ({ kind, value }: IndicatorRef): string => `${kind}\u0000${value}`;
