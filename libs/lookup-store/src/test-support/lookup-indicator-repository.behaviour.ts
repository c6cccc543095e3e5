import type { AccountRepository } from '@ringfence/accounts';
import type { IndicatorRef, LookupIndicatorRepository, LookupTenant } from '@ringfence/lookup';
import { buildAccount } from '@ringfence/persistence/testing';
import {
  SEEN_AT,
  buildChargeback,
  buildManualReview,
  buildReport,
  buildSighting,
  buildSubmission,
} from './lookup-test-data.factory';

const DAY_MS = 86_400_000;

/** What any LookupIndicatorRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeALookupIndicatorRepository(
  repositories: () => { accounts: AccountRepository; lookup: LookupIndicatorRepository },
): void {
  const lookup = () => repositories().lookup;

  async function newTenant(industry: string | null = 'marketplace', environment: LookupTenant['environment'] = 'live'): Promise<LookupTenant> {
    const account = buildAccount({ industry });
    await repositories().accounts.insert(account);
    return { accountId: account.id, environment, industry };
  }

  const refOf = ({ kind, value }: IndicatorRef): IndicatorRef => ({ kind, value });

  it('summarises nothing for an indicator never reported', async () => {
    const tenant = await newTenant();

    await expect(lookup().summarise(tenant, [refOf(buildSighting())])).resolves.toEqual([]);
  });

  it('counts the evidence of a reported indicator by kind, with when it was first and last seen', async () => {
    const tenant = await newTenant();
    const early = buildSighting({ seenAt: SEEN_AT });
    await lookup().add(tenant, { indicators: [early], evidence: [buildChargeback(), buildChargeback(), buildManualReview()] });
    await lookup().add(tenant, { indicators: [{ ...early, seenAt: SEEN_AT + DAY_MS }], evidence: [buildManualReview()] });

    const [summary] = await lookup().summarise(tenant, [refOf(early)]);

    expect(summary).toEqual({
      kind: 'email',
      value: early.value,
      chargebacks: 2,
      manualReviews: 2,
      reports: 0,
      own: { chargebacks: 2, manualReviews: 2, reports: 0 },
      firstSeen: SEEN_AT,
      lastSeen: SEEN_AT + DAY_MS,
    });
  });

  it('knows an indicator reported without evidence, as a report', async () => {
    const tenant = await newTenant();
    const sighting = buildSighting({ kind: 'ipAddress', value: '203.0.113.9' });
    await lookup().add(tenant, { indicators: [sighting], evidence: [buildReport()] });
    await lookup().add(tenant, { indicators: [sighting], evidence: [buildReport()] });

    await expect(lookup().summarise(tenant, [refOf(sighting)])).resolves.toMatchObject([
      { chargebacks: 0, manualReviews: 0, reports: 1, own: { reports: 1 } },
    ]);
  });

  it('counts the same evidence sent again once', async () => {
    const tenant = await newTenant();
    const submission = buildSubmission();

    await lookup().add(tenant, submission);
    await lookup().add(tenant, submission);

    await expect(lookup().summarise(tenant, submission.indicators.map(refOf))).resolves.toMatchObject([{ chargebacks: 1 }]);
  });

  it('applies every piece of evidence of a submission to each of its indicators', async () => {
    const tenant = await newTenant();
    const email = buildSighting();
    const card = buildSighting({ kind: 'instrumentId', value: `card-${email.value}` });
    await lookup().add(tenant, { indicators: [email, card], evidence: [buildChargeback(), buildManualReview()] });

    const summaries = await lookup().summarise(tenant, [refOf(email), refOf(card)]);

    expect(summaries).toHaveLength(2);
    for (const summary of summaries) expect(summary).toMatchObject({ chargebacks: 1, manualReviews: 1 });
  });

  it("adds other accounts' evidence of the data set to the counts, apart from the asking account's own", async () => {
    const mine = await newTenant();
    const theirs = await newTenant();
    const sighting = buildSighting({ kind: 'telephone', value: '+447700900123' });
    await lookup().add(mine, { indicators: [sighting], evidence: [buildManualReview()] });
    await lookup().add(theirs, { indicators: [{ ...sighting, seenAt: SEEN_AT - DAY_MS }], evidence: [buildChargeback(), buildChargeback()] });

    const [summary] = await lookup().summarise(mine, [refOf(sighting)]);

    expect(summary).toMatchObject({
      chargebacks: 2,
      manualReviews: 1,
      own: { chargebacks: 0, manualReviews: 1, reports: 0 },
      firstSeen: SEEN_AT - DAY_MS,
      lastSeen: SEEN_AT,
    });
  });

  it("keeps test and live data apart: another data set's evidence is not seen", async () => {
    const live = await newTenant('marketplace', 'live');
    const sandboxOfAnother = await newTenant('marketplace', 'test');
    const sighting = buildSighting();
    await lookup().add(sandboxOfAnother, buildSubmission({ indicators: [sighting] }));

    await expect(lookup().summarise(live, [refOf(sighting)])).resolves.toEqual([]);
    await expect(lookup().summarise({ ...sandboxOfAnother, environment: 'live' }, [refOf(sighting)])).resolves.toEqual([]);
  });

  it('leaves out IP evidence seen before the given time, and only IP evidence', async () => {
    const tenant = await newTenant();
    const ip = buildSighting({ kind: 'ipAddress', value: '198.51.100.23', seenAt: SEEN_AT - 10 * DAY_MS });
    const email = buildSighting({ seenAt: SEEN_AT - 10 * DAY_MS });
    await lookup().add(tenant, { indicators: [ip, email], evidence: [buildChargeback()] });
    await lookup().add(tenant, { indicators: [{ ...ip, seenAt: SEEN_AT }], evidence: [buildManualReview()] });

    const summaries = await lookup().summarise(tenant, [refOf(ip), refOf(email)], { ipSeenFrom: SEEN_AT - DAY_MS });

    expect(summaries.find((summary) => summary.kind === 'ipAddress')).toMatchObject({ chargebacks: 0, manualReviews: 1, firstSeen: SEEN_AT });
    expect(summaries.find((summary) => summary.kind === 'email')).toMatchObject({ chargebacks: 1, firstSeen: SEEN_AT - 10 * DAY_MS });
  });

  it('counts IP evidence seen exactly at the given time', async () => {
    const tenant = await newTenant();
    const ip = buildSighting({ kind: 'ipAddress', value: '198.51.100.24', seenAt: SEEN_AT });
    await lookup().add(tenant, buildSubmission({ indicators: [ip] }));

    await expect(lookup().summarise(tenant, [refOf(ip)], { ipSeenFrom: SEEN_AT })).resolves.toHaveLength(1);
    await expect(lookup().summarise(tenant, [refOf(ip)], { ipSeenFrom: SEEN_AT + 1 })).resolves.toEqual([]);
  });

  it("limits other accounts' evidence to the asking account's industry when asked", async () => {
    const industry = `industry-${Date.now()}-${Math.random()}`;
    const mine = await newTenant(industry);
    const sameIndustry = await newTenant(industry);
    const otherIndustry = await newTenant('travel');
    const noIndustry = await newTenant(null);
    const sighting = buildSighting();
    await lookup().add(mine, { indicators: [sighting], evidence: [buildReport()] });
    await lookup().add(sameIndustry, { indicators: [sighting], evidence: [buildChargeback()] });
    await lookup().add(otherIndustry, { indicators: [sighting], evidence: [buildChargeback(), buildManualReview()] });
    await lookup().add(noIndustry, { indicators: [sighting], evidence: [buildManualReview()] });

    await expect(lookup().summarise(mine, [refOf(sighting)], { limitIndustry: true })).resolves.toMatchObject([
      { chargebacks: 1, manualReviews: 0, reports: 1 },
    ]);
    await expect(lookup().summarise(mine, [refOf(sighting)], { limitIndustry: false })).resolves.toMatchObject([
      { chargebacks: 2, manualReviews: 2, reports: 1 },
    ]);
    await expect(lookup().summarise(noIndustry, [refOf(sighting)], { limitIndustry: true })).resolves.toMatchObject([
      { chargebacks: 0, manualReviews: 1, reports: 0 },
    ]);
  });

  describe('at checkpoints (checkpointEvidence)', () => {
    const none = { chargebacks: 0, manualReviews: 0, reports: 0 };
    const byKind = <T extends IndicatorRef>(items: T[]) => [...items].sort((a, b) => a.kind.localeCompare(b.kind));

    it('answers e-mails, phones, IPs and instruments with evidence, and only those', async () => {
      const tenant = await newTenant();
      const theirs = await newTenant();
      const email = buildSighting();
      const phone = buildSighting({ kind: 'telephone', value: `+4477009${Math.floor(Math.random() * 1e5)}` });
      const ip = buildSighting({ kind: 'ipAddress', value: `2001:db8::${Math.floor(Math.random() * 0xffff).toString(16)}` });
      const card = buildSighting({ kind: 'instrumentId', value: `card-${email.value}` });
      await lookup().add(tenant, buildSubmission({ indicators: [email, ip] }));
      await lookup().add(theirs, buildSubmission({ indicators: [phone, card] }));

      const known = await lookup().checkpointEvidence(tenant, {
        emails: [email.value, 'never-reported@example.com'],
        phones: [phone.value],
        ips: [ip.value],
        instrumentIds: [card.value],
      });

      expect(byKind(known).map(refOf)).toEqual(byKind([email, ip, card, phone]).map(refOf));
      await expect(lookup().checkpointEvidence(tenant, { emails: ['never-reported@example.com'] })).resolves.toEqual([]);
      await expect(lookup().checkpointEvidence(tenant, {})).resolves.toEqual([]);
    });

    it("keeps the account's own evidence apart from other accounts', which it counts by distinct account", async () => {
      const mine = await newTenant();
      const [first, second] = [await newTenant(), await newTenant()];
      const email = buildSighting({ seenAt: SEEN_AT });
      await lookup().add(mine, { indicators: [email], evidence: [buildManualReview()] });
      await lookup().add(first, { indicators: [{ ...email, seenAt: SEEN_AT - DAY_MS }], evidence: [buildChargeback(), buildChargeback()] });
      await lookup().add(first, { indicators: [{ ...email, seenAt: SEEN_AT + DAY_MS }], evidence: [buildManualReview()] });
      await lookup().add(second, { indicators: [{ ...email, seenAt: SEEN_AT - 2 * DAY_MS }], evidence: [buildReport()] });

      await expect(lookup().checkpointEvidence(mine, { emails: [email.value, email.value] })).resolves.toEqual([
        {
          kind: 'email',
          value: email.value,
          own: { chargebacks: 0, manualReviews: 1, reports: 0 },
          otherAccounts: 2,
          otherEvidence: { chargebacks: 2, manualReviews: 1, reports: 1 },
          otherLastSeen: SEEN_AT + DAY_MS,
        },
      ]);
      // Seen from another account, the asking one is one of the others.
      await expect(lookup().checkpointEvidence(second, { emails: [email.value] })).resolves.toMatchObject([
        { own: { chargebacks: 0, manualReviews: 0, reports: 1 }, otherAccounts: 2, otherEvidence: { chargebacks: 2, manualReviews: 2, reports: 0 } },
      ]);
    });

    it("answers only other accounts' evidence when the account has none of its own", async () => {
      const mine = await newTenant();
      const theirs = await newTenant();
      const phone = buildSighting({ kind: 'telephone', value: `+4477008${Math.floor(Math.random() * 1e5)}` });
      await lookup().add(theirs, { indicators: [phone], evidence: [buildReport()] });

      await expect(lookup().checkpointEvidence(mine, { phones: [phone.value] })).resolves.toEqual([
        { kind: 'telephone', value: phone.value, own: none, otherAccounts: 1, otherEvidence: { ...none, reports: 1 }, otherLastSeen: SEEN_AT },
      ]);
    });

    it("answers the account's own evidence with no other account as zero others", async () => {
      const mine = await newTenant();
      const card = buildSighting({ kind: 'instrumentId', value: `card-${Math.random()}` });
      await lookup().add(mine, { indicators: [card], evidence: [buildChargeback()] });

      await expect(lookup().checkpointEvidence(mine, { instrumentIds: [card.value] })).resolves.toEqual([
        { kind: 'instrumentId', value: card.value, own: { ...none, chargebacks: 1 }, otherAccounts: 0, otherEvidence: none, otherLastSeen: null },
      ]);
    });

    it("limits other accounts to the asking account's industry when asked; its own evidence always counts", async () => {
      const industry = `industry-${Date.now()}-${Math.random()}`;
      const mine = await newTenant(industry);
      const sameIndustry = await newTenant(industry);
      const otherIndustry = await newTenant('travel');
      const noIndustry = await newTenant(null);
      const email = buildSighting();
      await lookup().add(mine, { indicators: [email], evidence: [buildReport()] });
      for (const tenant of [sameIndustry, otherIndustry, noIndustry]) await lookup().add(tenant, { indicators: [email], evidence: [buildChargeback()] });

      await expect(lookup().checkpointEvidence(mine, { emails: [email.value] }, { limitIndustry: true })).resolves.toMatchObject([
        { own: { reports: 1 }, otherAccounts: 1, otherEvidence: { chargebacks: 1 } },
      ]);
      await expect(lookup().checkpointEvidence(mine, { emails: [email.value] }, { limitIndustry: false })).resolves.toMatchObject([
        { own: { reports: 1 }, otherAccounts: 3, otherEvidence: { chargebacks: 3 } },
      ]);
      await expect(lookup().checkpointEvidence(noIndustry, { emails: [email.value] }, { limitIndustry: true })).resolves.toEqual([
        { kind: 'email', value: email.value, own: { ...none, chargebacks: 1 }, otherAccounts: 0, otherEvidence: none, otherLastSeen: null },
      ]);
    });

    it('sees nothing of another data set, its own account\'s included', async () => {
      const live = await newTenant('marketplace', 'live');
      const email = buildSighting();
      await lookup().add(live, buildSubmission({ indicators: [email] }));
      const other = await newTenant();
      await lookup().add(other, buildSubmission({ indicators: [email] }));

      await expect(lookup().checkpointEvidence({ ...live, environment: 'test' }, { emails: [email.value] })).resolves.toEqual([]);
      await expect(lookup().checkpointEvidence({ ...other, environment: 'test' }, { emails: [email.value] })).resolves.toEqual([]);
    });
  });

  it("removes only the account's own records, answering the evidence removed per indicator", async () => {
    const mine = await newTenant();
    const theirs = await newTenant();
    const email = buildSighting();
    const ip = buildSighting({ kind: 'ipAddress', value: '192.0.2.200' });
    await lookup().add(mine, { indicators: [email, ip], evidence: [buildChargeback(), buildManualReview()] });
    await lookup().add(theirs, { indicators: [email], evidence: [buildChargeback()] });

    const removed = await lookup().remove(mine, [refOf(email), refOf(ip), { kind: 'bankId', value: 'never-reported' }]);

    expect(removed.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'email', value: email.value, evidenceRemoved: 2 },
      { kind: 'ipAddress', value: ip.value, evidenceRemoved: 2 },
    ]);
    await expect(lookup().summarise(mine, [refOf(email), refOf(ip)])).resolves.toMatchObject([
      { kind: 'email', chargebacks: 1, manualReviews: 0, own: { chargebacks: 0, manualReviews: 0, reports: 0 } },
    ]);
    await expect(lookup().summarise(theirs, [refOf(email)])).resolves.toMatchObject([{ chargebacks: 1, own: { chargebacks: 1 } }]);
  });

  it('removes nothing in another data set of the same account', async () => {
    const live = await newTenant();
    const sandbox: LookupTenant = { ...live, environment: 'test' };
    const sighting = buildSighting();
    await lookup().add(live, buildSubmission({ indicators: [sighting] }));

    await expect(lookup().remove(sandbox, [refOf(sighting)])).resolves.toEqual([]);

    await expect(lookup().summarise(live, [refOf(sighting)])).resolves.toHaveLength(1);
  });

  it('records an indicator again after it was removed', async () => {
    const tenant = await newTenant();
    const submission = buildSubmission();
    await lookup().add(tenant, submission);
    await lookup().remove(tenant, submission.indicators.map(refOf));

    await lookup().add(tenant, submission);

    await expect(lookup().summarise(tenant, submission.indicators.map(refOf))).resolves.toMatchObject([{ chargebacks: 1 }]);
  });

  it('records nothing when a submission fails half-way', async () => {
    const tenant = await newTenant();
    const sighting = buildSighting();
    const invalid = { evidenceKind: 'rumour', evidenceId: 'r-1', details: {} } as never;

    await expect(lookup().add(tenant, { indicators: [sighting], evidence: [invalid] })).rejects.toThrow(/chk_lookup_evidence_evidence_kind/);

    await expect(lookup().remove(tenant, [refOf(sighting)])).resolves.toEqual([]);
    await expect(lookup().add(tenant, { indicators: [sighting], evidence: [buildReport()] })).resolves.toBeUndefined();
  });
}
