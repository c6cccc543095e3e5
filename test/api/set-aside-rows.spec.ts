import { setTimeout as delay } from 'node:timers/promises';
import { DECISION_RECORD_REPOSITORY, type DecisionRecordRepository } from '@ringfence/scoring-engine';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest } from '../support/payload-factories';

type Answer = { data: { scoreId: string; action: string } };
type SetAsideRowView = { id: string; writer: string; accountId: string | null; environment: string | null; key: string; row: string; error: string; attempts: number };
type SetAsideList = { writers: string[]; rows: SetAsideRowView[] };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/**
 * ADR-0016, "One bad row never blocks the others", through the embedded app over HTTPS:
 * a decision record the database refuses no longer stops every later decision from being
 * recorded, and the operator reads and replays it.
 */
describe('set-aside rows (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let poisonedCustomer: string;
  let restoreRepository: () => void;

  beforeAll(async () => {
    service = await startEmbeddedService();
    // Part of the gateway now refuses the input that did this (a timestamp of 1e30 s), so the
    // repository turns one customer's records into what it was: a timestamp of 1e24 ms, which
    // the bigint column refuses ("invalid input syntax for type bigint"). The database's own
    // refusal, not a simulated one.
    const repository = service.app.get<DecisionRecordRepository>(DECISION_RECORD_REPOSITORY, { strict: false });
    const addAll = repository.addAll.bind(repository);
    poisonedCustomer = newId('cus-poisoned');
    const spy = jest
      .spyOn(repository, 'addAll')
      .mockImplementation((records) => addAll(records.map((record) => (record.subjectId === poisonedCustomer ? { ...record, timestamp: 1e24 } : record))));
    restoreRepository = () => spy.mockRestore();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = <T>(method: string, path: string, apiKey: string, body?: unknown) => service.client.send<T>({ method, path, body, apiKey });
  const customerCheckpoint = (customerId: string) => send<Answer>('POST', '/v2/customer', TEST_BOOTSTRAP_KEY, customerRequest({ customer: { customerId } }));
  const setAsideRows = (query = '') => send<SetAsideList>('GET', `/admin/set-aside-rows${query}`, TEST_ADMIN_KEY);

  it('records, reads and backtests every later decision once the refused record is set aside, which the operator reads and replays', async () => {
    const from = Date.now() - 1_000;
    const poisoned = await customerCheckpoint(poisonedCustomer);
    expect(poisoned.status).toBe(200);
    const poisonedScoreId = poisoned.body.data.scoreId;

    // Asynchronous by design: the record is written behind the answer, and set aside after its
    // attempts, one per commit of the consumer's offsets, which the consumers' progress (other
    // decisions) starts, at most every 200 ms.
    let listed: SetAsideList = { writers: [], rows: [] };
    for (const started = Date.now(); listed.rows.length === 0 && Date.now() - started < 20_000; await delay(100)) {
      expect((await customerCheckpoint(newId('cus-meanwhile'))).status).toBe(200);
      listed = (await setAsideRows('?writer=decision-records')).body;
    }
    expect(listed.writers).toEqual(expect.arrayContaining(['decision-records', 'entity-documents']));
    expect(listed.rows).toEqual([
      expect.objectContaining({ writer: 'decision-records', environment: 'test', key: expect.stringContaining(poisonedScoreId) as string, attempts: 3 }),
    ]);
    const [entry] = listed.rows;
    expect(entry.error).toMatch(/invalid input syntax for type bigint/);
    // The record as the writer holds it (what a replay writes), not the statement's parameters.
    expect(JSON.parse(entry.row)).toEqual(expect.objectContaining({ scoreId: poisonedScoreId, subjectId: poisonedCustomer, checkpoint: 'customer' }));
    expect((await send<string>('GET', `/admin/set-aside-rows/${entry.id}`, TEST_ADMIN_KEY)).body).toEqual(entry);
    const metrics = await service.client.send<string>({ path: '/metrics' });
    expect(metrics.text).toMatch(/ringfence_rows_set_aside_total\{writer="decision-records"\} 1/);

    const later = await customerCheckpoint(newId('cus-later'));
    expect(later.status).toBe(200);
    const read = await send<{ data: { scoreId: string } }>('GET', `/v2/decisions/${later.body.data.scoreId}`, TEST_BOOTSTRAP_KEY);
    expect(read.status).toBe(200);
    // A backtest writes every pending record first: it failed (500) on every call while the refused one was retried forever.
    const backtest = await send<{ data: { evaluated: number } }>('POST', '/v2/rules/backtest', TEST_BOOTSTRAP_KEY, {
      checkpoint: 'customer',
      from,
      to: Date.now() + 1_000,
      rules: [{ name: 'everyone', expression: 'true', action: 'REVIEW' }],
    });
    expect(backtest.status).toBe(200);
    expect(backtest.body.data.evaluated).toBeGreaterThanOrEqual(2);

    // The operator replays it: refused again while the cause stands (the entry stays), written once it is fixed.
    const refusedAgain = await send<{ message: string }>('POST', `/admin/set-aside-rows/${entry.id}/replay`, TEST_ADMIN_KEY);
    expect(refusedAgain.status).toBe(409);
    expect(refusedAgain.body.message).toMatch(/still refuses/);
    restoreRepository();
    const replayed = await send<{ outcome: string }>('POST', `/admin/set-aside-rows/${entry.id}/replay`, TEST_ADMIN_KEY);
    expect(replayed.status).toBe(200);
    expect(replayed.body.outcome).toBe('written');
    expect((await setAsideRows('?writer=decision-records')).body.rows).toEqual([]);
    expect((await send('GET', `/v2/decisions/${poisonedScoreId}`, TEST_BOOTSTRAP_KEY)).status).toBe(200);
  }, 60_000);

  it('serves the set-aside rows to the admin token only', async () => {
    expect((await setAsideRows()).status).toBe(200);
    expect((await send('GET', '/admin/set-aside-rows', TEST_BOOTSTRAP_KEY)).status).toBe(403);
    expect((await send('POST', '/admin/set-aside-rows/sa_unknown/replay', TEST_ADMIN_KEY)).status).toBe(404);
  });
});
