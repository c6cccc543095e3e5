import type { IndicatorSubmission, KnownIndicatorQuery, LookupTenant } from '@ringfence/lookup';
import { buildAccount } from '../test-support/persistence-test-data.factory';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmAccountRepository } from './typeorm-account.repository';
import { KnownIndicatorsFilter } from './known-indicators-filter.repository';
import { TypeOrmLookupIndicatorRepository } from './typeorm-lookup-indicator.repository';

const T = 1_763_800_000_000;
const report = (value: string): IndicatorSubmission => ({
  indicators: [{ kind: 'email', value, seenAt: T }],
  evidence: [{ evidenceKind: 'chargeback', evidenceId: `cb-${value}`, details: {} }],
} as unknown as IndicatorSubmission);

describe(KnownIndicatorsFilter.name, () => {
  const database = useEmbeddedTestDatabase();

  let reporter: LookupTenant;
  let asker: LookupTenant;

  beforeEach(async () => {
    const accounts = new TypeOrmAccountRepository(database.dataSource());
    const [reporting, asking] = [buildAccount(), buildAccount()];
    await accounts.insert(reporting);
    await accounts.insert(asking);
    reporter = { accountId: reporting.id, environment: 'live' };
    asker = { accountId: asking.id, environment: 'live' };
  });

  function counted() {
    const table = new TypeOrmLookupIndicatorRepository(database.dataSource());
    const asked = jest.spyOn(table, 'checkpointEvidence');
    const summarised = jest.spyOn(table, 'summarise');
    return { table, asked, summarised };
  }

  it('answers a checkpoint whose values nobody reported without asking the table, and asks it for a reported one', async () => {
    const { table, asked } = counted();
    const filter = await KnownIndicatorsFilter.load(table);
    await filter.add(reporter, report('mule@example.com'));

    const unknown: KnownIndicatorQuery = { emails: ['ada@example.com'] };
    expect(await filter.checkpointEvidence(asker, unknown)).toEqual([]);
    expect(asked).not.toHaveBeenCalled();

    const reported = await filter.checkpointEvidence(asker, { emails: ['mule@example.com', 'ada@example.com'] });
    expect(asked).toHaveBeenCalledTimes(1);
    expect(reported).toEqual(await table.checkpointEvidence(asker, { emails: ['mule@example.com', 'ada@example.com'] }));
    expect(reported.length).toBeGreaterThan(0);
  });

  it('answers a lookup of values nobody reported without asking the table, and asks it only about the reported ones', async () => {
    const { table, summarised } = counted();
    const filter = await KnownIndicatorsFilter.load(table);
    await filter.add(reporter, report('fence@example.com'));

    expect(await filter.summarise(asker, [{ kind: 'email', value: 'ada@example.com' }, { kind: 'telephone', value: '+447700900123' }])).toEqual([]);
    expect(summarised).not.toHaveBeenCalled();

    const asked = [{ kind: 'email', value: 'ada@example.com' }, { kind: 'email', value: 'fence@example.com' }] as const;
    const summaries = await filter.summarise(asker, asked);
    expect(summarised).toHaveBeenCalledWith(asker, [{ kind: 'email', value: 'fence@example.com' }], undefined);
    expect(summaries).toEqual(await table.summarise(asker, asked));
    expect(summaries).toEqual([expect.objectContaining({ kind: 'email', value: 'fence@example.com', chargebacks: 1 })]);
  });

  it('knows, after a restart, what was reported before it', async () => {
    const { table } = counted();
    await table.add(reporter, report('ring@example.com'));
    const filter = await KnownIndicatorsFilter.load(table);
    expect((await filter.checkpointEvidence(asker, { emails: ['ring@example.com'] })).length).toBeGreaterThan(0);
  });
});
