import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { Cases } from '@ringfence/labels';
import { until } from '../../../../test/tools/eventually';
import { itBehavesLikeACaseRepository, itFindsTheNextCaseByItsIndex, reviewEvent } from '../test-support/case-repository.behaviour';
import { LABEL_STORE_SCHEMA } from '../label-store.schema';
import { TypeOrmCaseRepository } from './typeorm-case.repository';

describe(TypeOrmCaseRepository.name, () => {
  const database = usePostgresTestDatabase(LABEL_STORE_SCHEMA);

  itBehavesLikeACaseRepository(() => new TypeOrmCaseRepository(database.dataSource()));
  itFindsTheNextCaseByItsIndex(() => database.dataSource());

  it('does not join a decision to a case whose close commits while the decision is being added: it opens a new case', async () => {
    const dataSource = database.dataSource();
    const cases = new Cases(new TypeOrmCaseRepository(dataSource));
    const owner = { accountId: `acc-race-${Date.now().toString(36)}`, environment: 'test' as const };
    await cases.addDecision(owner, 'evt-r1', reviewEvent('cus-race'));
    const [first] = (await cases.list(owner, { status: 'active', order: 'age', limit: 1 })).cases;

    // Another connection closes the case and holds its transaction open while the decision comes in.
    const closer = dataSource.createQueryRunner();
    await closer.connect();
    try {
      await closer.startTransaction();
      await closer.query(`UPDATE cases SET status = 'closed', outcome = 'genuine', closed_at = now(), version = version + 1 WHERE account_id = $1 AND case_id = $2`, [owner.accountId, first.caseId]);
      const adding = cases.addDecision(owner, 'evt-r2', reviewEvent('cus-race'));
      // Asynchronous by design: the decision's statement waits on the closer's row lock, which only the server can tell.
      await until(async () => (await dataSource.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO case_decisions%'`)).length > 0);
      await closer.commitTransaction();
      expect(await adding).toBe('opened');
    } finally {
      await closer.release();
    }
    const closed = await cases.read(owner, first.caseId);
    expect(closed.case).toMatchObject({ status: 'closed', decisionCount: 1 });
    expect(closed.decisions).toHaveLength(1);
    const active = (await cases.list(owner, { status: 'active', order: 'age', limit: 10 })).cases;
    expect(active).toEqual([expect.objectContaining({ decisionCount: 1, status: 'open' })]);
    expect(active[0].caseId).not.toBe(first.caseId);
  });
});
