import type { AccountRepository } from '@ringfence/accounts';
import type { IndicatorRef, LookupTenant } from '@ringfence/lookup';
import type { StoredEvidence, StoredIndicatorCounts, TypeOrmLookupIndicatorRepository } from '../repositories/typeorm-lookup-indicator.repository';
import { SEEN_AT, buildChargeback, buildManualReview, buildReport, buildSighting } from './lookup-test-data.factory';
import { buildAccount } from '@ringfence/persistence/testing';

/**
 * What the lookup table gives a sole writer's tally (`storedEvidenceAfter` at start, with the
 * reporters' industries, `storedCountsOf` for what the tally let go of); run against each
 * database by the table's specs.
 */
export function itCountsTheStoredEvidence(repositories: () => { accounts: AccountRepository; table: TypeOrmLookupIndicatorRepository }): void {
  const table = () => repositories().table;

  async function newTenant(industry: string | null, environment: LookupTenant['environment'] = 'live'): Promise<LookupTenant> {
    const account = buildAccount({ industry });
    await repositories().accounts.insert(account);
    return { accountId: account.id, environment, industry };
  }

  /** One indicator reported by two accounts in live (one of them twice, and once again in test), another by one. */
  async function reportTwoIndicators() {
    const [travel, unnamed] = [await newTenant('travel'), await newTenant(null)];
    const sighting = buildSighting();
    const chargeback = buildChargeback();
    await table().add(travel, { indicators: [sighting], evidence: [chargeback, buildManualReview()] });
    // The same chargeback again, seen later: the store keeps it once, and its first time.
    await table().add(travel, { indicators: [{ ...sighting, seenAt: SEEN_AT + 5 }], evidence: [chargeback] });
    await table().add({ ...travel, environment: 'test' }, { indicators: [sighting], evidence: [buildReport()] });
    await table().add(unnamed, { indicators: [{ ...sighting, seenAt: SEEN_AT + 9 }], evidence: [buildReport()] });
    const other = buildSighting({ kind: 'telephone', value: `+4477009${Math.floor(Math.random() * 1e5)}` });
    await table().add(unnamed, { indicators: [other], evidence: [buildChargeback()] });
    const counts = (tenant: LookupTenant, industry: string | null, indicator: IndicatorRef, evidence: Partial<StoredIndicatorCounts> & { lastSeen: number }): StoredIndicatorCounts => ({
      environment: tenant.environment,
      accountId: tenant.accountId,
      kind: indicator.kind,
      value: indicator.value,
      industry,
      chargebacks: 0,
      manualReviews: 0,
      reports: 0,
      ...evidence,
    });
    return {
      sighting,
      other,
      expected: [
        counts(travel, 'travel', sighting, { chargebacks: 1, manualReviews: 1, lastSeen: SEEN_AT }),
        counts(unnamed, null, sighting, { reports: 1, lastSeen: SEEN_AT + 9 }),
        counts({ ...travel, environment: 'test' }, 'travel', sighting, { reports: 1, lastSeen: SEEN_AT }),
        counts(unnamed, null, other, { chargebacks: 1, lastSeen: SEEN_AT }),
      ],
    };
  }

  const ordered = (rows: readonly StoredIndicatorCounts[]) => [...rows].sort((a, b) => `${a.kind}${a.value}${a.environment}${a.accountId}`.localeCompare(`${b.kind}${b.value}${b.environment}${b.accountId}`));

  it("counts every account's evidence of the indicators asked about, in both data sets, with the accounts' industries", async () => {
    const { sighting, other, expected } = await reportTwoIndicators();

    const rows = await table().storedCountsOf([sighting, other, buildSighting()]);

    expect(ordered(rows)).toEqual(ordered(expected));
  });

  it('gives every stored piece of evidence once over a keyset pass, whose it is, and every account\'s industry', async () => {
    const { sighting, other, expected } = await reportTwoIndicators();
    const ours = new Set([sighting.value, other.value]);

    const pieces: StoredEvidence[] = [];
    for (let after: StoredEvidence | null = null; ; ) {
      const page = await table().storedEvidenceAfter(after, 2);
      if (page.length === 0) break;
      pieces.push(...page.filter((piece) => ours.has(piece.value)));
      after = page[page.length - 1];
    }

    // Counted per account, data set and indicator, the pieces give the same counts.
    const counted = new Map<string, StoredIndicatorCounts>();
    for (const piece of pieces) {
      const key = JSON.stringify([piece.accountId, piece.environment, piece.kind, piece.value]);
      const counts = counted.get(key) ?? { accountId: piece.accountId, environment: piece.environment, kind: piece.kind, value: piece.value, industry: piece.industry, chargebacks: 0, manualReviews: 0, reports: 0, lastSeen: 0 };
      counts[({ chargeback: 'chargebacks', manualReview: 'manualReviews', report: 'reports' } as const)[piece.evidenceKind]] += 1;
      counts.lastSeen = Math.max(counts.lastSeen, piece.seenAt);
      counted.set(key, counts);
    }
    expect(pieces).toHaveLength(5);
    expect(ordered([...counted.values()])).toEqual(ordered(expected));
  });
}
