import type { IndicatorSubmission, LookupTenant } from '@ringfence/lookup';
import { itBehavesLikeALookupIndicatorRepository } from '../test-support/lookup-indicator-repository.behaviour';
import { buildAccount } from '@ringfence/persistence/testing';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { TalliedLookupIndicatorRepository } from './tallied-lookup-indicator.repository';
import { InMemoryAccountRepository } from '@ringfence/accounts/testing';
import { TypeOrmLookupIndicatorRepository } from './typeorm-lookup-indicator.repository';
import { LOOKUP_STORE_SCHEMA } from '../lookup-store.schema';

const T = 1_763_800_000_000;
const report = (value: string, evidenceId = `cb-${value}`): IndicatorSubmission => ({
  indicators: [{ kind: 'email', value, seenAt: T }],
  evidence: [{ evidenceKind: 'chargeback', evidenceId, details: {} }],
});

describe(TalliedLookupIndicatorRepository.name, () => {
  const database = useEmbeddedTestDatabase(LOOKUP_STORE_SCHEMA);

  describe('answers as the table does', () => {
    let tallied: TalliedLookupIndicatorRepository;
    beforeEach(async () => {
      tallied = await TalliedLookupIndicatorRepository.load(new TypeOrmLookupIndicatorRepository(database.dataSource()));
    });

    itBehavesLikeALookupIndicatorRepository(() => ({ accounts: new InMemoryAccountRepository(), lookup: tallied }));
  });

  describe('answers as the table does, holding one indicator at a time', () => {
    // A database of its own: the behaviour suite reports the same values in every run of it.
    const own = useEmbeddedTestDatabase(LOOKUP_STORE_SCHEMA);
    let tallied: TalliedLookupIndicatorRepository;
    beforeEach(async () => {
      tallied = await TalliedLookupIndicatorRepository.load(new TypeOrmLookupIndicatorRepository(own.dataSource()), 1);
    });

    itBehavesLikeALookupIndicatorRepository(() => ({ accounts: new InMemoryAccountRepository(), lookup: tallied }));
  });

  describe('at checkpoints', () => {
    let reporter: LookupTenant;
    let asker: LookupTenant;

    beforeEach(async () => {
      const accounts = new InMemoryAccountRepository();
      const [reporting, asking] = [buildAccount({ industry: 'travel' }), buildAccount({ industry: 'travel' })];
      await accounts.insert(reporting);
      await accounts.insert(asking);
      reporter = { accountId: reporting.id, environment: 'live', industry: 'travel' };
      asker = { accountId: asking.id, environment: 'live', industry: 'travel' };
    });

    function spiedTable() {
      const table = new TypeOrmLookupIndicatorRepository(database.dataSource());
      return {
        table,
        checkpointReads: jest.spyOn(table, 'checkpointEvidence'),
        countReads: jest.spyOn(table, 'storedCountsOf'),
        summaries: jest.spyOn(table, 'summarise'),
      };
    }

    it('answers about reported values and others without reading the table, as the table would', async () => {
      const { table, checkpointReads, countReads } = spiedTable();
      const tallied = await TalliedLookupIndicatorRepository.load(table);
      await tallied.add(reporter, report('mule@example.com'));
      await tallied.add(reporter, report('mule@example.com'));

      const asked = { emails: ['mule@example.com', 'ada@example.com'] };
      const answer = await tallied.checkpointEvidence(asker, asked);
      expect(checkpointReads).not.toHaveBeenCalled();
      expect(countReads).not.toHaveBeenCalled();
      expect(answer).toEqual(await table.checkpointEvidence(asker, asked));
      expect(answer).toEqual([expect.objectContaining({ value: 'mule@example.com', otherAccounts: 1, otherEvidence: { chargebacks: 1, manualReviews: 0, reports: 0 } })]);
    });

    it("limits to the asking tenant's industry as the table does, with the reporters' industries kept with their evidence, also after a restart", async () => {
      const { table, countReads } = spiedTable();
      const tallied = await TalliedLookupIndicatorRepository.load(table);
      await tallied.add(reporter, report('fence@example.com'));
      const asked = { emails: ['fence@example.com'] };
      const limited = { limitIndustry: true };
      const elsewhere: LookupTenant = { ...asker, industry: 'gaming' };
      const withoutIndustry: LookupTenant = { ...asker, industry: null };

      expect(await tallied.checkpointEvidence(asker, asked, limited)).toMatchObject([{ otherAccounts: 1 }]);
      expect(await tallied.checkpointEvidence(elsewhere, asked, limited)).toEqual([]);
      expect(await tallied.checkpointEvidence(withoutIndustry, asked, limited)).toEqual([]);
      for (const tenant of [asker, elsewhere, withoutIndustry]) {
        expect(await tallied.checkpointEvidence(tenant, asked, limited)).toEqual(await table.checkpointEvidence(tenant, asked, limited));
      }
      const restarted = await TalliedLookupIndicatorRepository.load(table);
      expect(await restarted.checkpointEvidence(asker, asked, limited)).toMatchObject([{ otherAccounts: 1 }]);
      expect(await restarted.checkpointEvidence(elsewhere, asked, limited)).toEqual([]);
      expect(countReads).not.toHaveBeenCalled();
    });

    it('forgets what the account removed, without reading the table again', async () => {
      const { table, countReads } = spiedTable();
      const tallied = await TalliedLookupIndicatorRepository.load(table);
      await tallied.add(reporter, report('gone@example.com'));
      await tallied.remove(reporter, [{ kind: 'email', value: 'gone@example.com' }]);
      await expect(tallied.checkpointEvidence(asker, { emails: ['gone@example.com'] })).resolves.toEqual([]);
      expect(countReads).not.toHaveBeenCalled();
    });

    it('asks the table only about indicators with evidence when summarising', async () => {
      const { table, summaries } = spiedTable();
      const tallied = await TalliedLookupIndicatorRepository.load(table);
      await tallied.add(reporter, report('ring@example.com'));

      expect(await tallied.summarise(asker, [{ kind: 'email', value: 'ada@example.com' }])).toEqual([]);
      expect(summaries).not.toHaveBeenCalled();
      const asked = [{ kind: 'email', value: 'ada@example.com' }, { kind: 'email', value: 'ring@example.com' }] as const;
      expect(await tallied.summarise(asker, asked)).toEqual(await table.summarise(asker, asked));
      expect(summaries).toHaveBeenCalledWith(asker, [{ kind: 'email', value: 'ring@example.com' }], undefined);
    });

    it('counts, after a restart, the evidence stored before it', async () => {
      const { table, checkpointReads } = spiedTable();
      await table.add(reporter, report('before@example.com', 'cb-1'));
      await table.add(reporter, report('before@example.com', 'cb-2'));
      const tallied = await TalliedLookupIndicatorRepository.load(table);
      const asked = { emails: ['before@example.com'] };
      const answer = await tallied.checkpointEvidence(asker, asked, { limitIndustry: true });
      expect(answer).toEqual(await table.checkpointEvidence(asker, asked, { limitIndustry: true }));
      expect(answer).toMatchObject([{ otherAccounts: 1, otherEvidence: { chargebacks: 2 } }]);
      expect(checkpointReads).toHaveBeenCalledTimes(1);
    });

    it('reads an indicator it let go of once, then holds it again', async () => {
      const { table, countReads } = spiedTable();
      // One indicator per account (ADR-0016): the reporter's second lets go of its first.
      const tallied = await TalliedLookupIndicatorRepository.load(table, 1_000, 1);
      await tallied.add(reporter, report('first@example.com'));
      await tallied.add(reporter, report('second@example.com'));

      const asked = { emails: ['first@example.com'] };
      const answer = await tallied.checkpointEvidence(asker, asked);
      expect(answer).toEqual(await table.checkpointEvidence(asker, asked));
      expect(answer).toMatchObject([{ otherAccounts: 1, otherEvidence: { chargebacks: 1 } }]);
      await tallied.checkpointEvidence(asker, asked);
      expect(countReads).toHaveBeenCalledTimes(1);
    });

    it('counts once a report that overtook the read of its indicator', async () => {
      const { table } = spiedTable();
      const tallied = await TalliedLookupIndicatorRepository.load(table, 1);
      await tallied.add(reporter, report('overtaken@example.com', 'cb-1'));
      await tallied.add(reporter, report('evicting@example.com'));
      // The second report of the address is stored, but answered only after a checkpoint
      // has read the address's counts (which hold the report) and answered.
      const record = table.record.bind(table);
      let reportStored: () => void = () => undefined;
      const stored = new Promise<void>((resolve) => (reportStored = resolve));
      let answerReport: () => void = () => undefined;
      jest.spyOn(table, 'record').mockImplementationOnce(async (...args) => {
        const recorded = await record(...args);
        reportStored();
        await new Promise<void>((resolve) => (answerReport = resolve));
        return recorded;
      });
      const reporting = tallied.add(reporter, report('overtaken@example.com', 'cb-2'));
      await stored;

      const asked = { emails: ['overtaken@example.com'] };
      const during = await tallied.checkpointEvidence(asker, asked);
      answerReport();
      await reporting;

      const expected = await table.checkpointEvidence(asker, asked);
      expect(expected).toMatchObject([{ otherEvidence: { chargebacks: 2 } }]);
      expect(during).toEqual(expected);
      expect(await tallied.checkpointEvidence(asker, asked)).toEqual(expected);
    });
  });

  describe('after a restart', () => {
    // A database of its own, holding only this test's indicators.
    const own = useEmbeddedTestDatabase(LOOKUP_STORE_SCHEMA);

    it('holds the counts of its capacity and reads the others when asked', async () => {
      const accounts = new InMemoryAccountRepository();
      const [reporting, asking] = [buildAccount(), buildAccount()];
      await accounts.insert(reporting);
      await accounts.insert(asking);
      const [reporter, asker]: LookupTenant[] = [reporting, asking].map(({ id, industry }) => ({ accountId: id, environment: 'live', industry }));
      const table = new TypeOrmLookupIndicatorRepository(own.dataSource());
      const countReads = jest.spyOn(table, 'storedCountsOf');
      for (const value of ['a@example.com', 'b@example.com', 'c@example.com']) await table.add(reporter, report(value));
      const tallied = await TalliedLookupIndicatorRepository.load(table, 2);
      expect(tallied.size).toBe(2);

      const asked = { emails: ['a@example.com', 'b@example.com', 'c@example.com', 'nobody@example.com'] };
      expect(await tallied.checkpointEvidence(asker, asked)).toEqual(await table.checkpointEvidence(asker, asked));
      expect(countReads).toHaveBeenCalledTimes(1);
      expect(countReads.mock.calls[0][0]).toEqual([{ kind: 'email', value: 'c@example.com' }]);
    });
  });
});
