import type { CheckpointScoredEvent } from '@ringfence/contracts';
import { DEFAULT_ROW_ATTEMPTS, InMemorySetAsideStore, SetAsideRows } from '@ringfence/platform';
import type { DecisionRecordRepository, RuleTenant, StoredDecisionRecord } from '@ringfence/scoring-engine';
import { DecisionRecords } from './decision-records';

const tenant: RuleTenant = { accountId: 'acc_1', environment: 'test' };

const decision = (scoreId: string) =>
  ({ scoreId, ruleCheckpoint: 'customer', timestamp: 1_764_000_000_000, recommendation: { action: 'ALLOW' }, subject: { kind: 'customer', id: 'cus-1' } }) as unknown as CheckpointScoredEvent;

/** A store whose writes finish only when the test says so. */
class HeldStore implements Pick<DecisionRecordRepository, 'addAll' | 'find'> {
  readonly stored = new Map<string, StoredDecisionRecord>();
  private release: ((failure?: Error) => void) | undefined;

  addAll(records: ReadonlyArray<StoredDecisionRecord & RuleTenant>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.release = (failure) => {
        if (failure) return reject(failure);
        for (const record of records) this.stored.set(record.scoreId, record);
        resolve();
      };
    });
  }

  async find(_tenant: RuleTenant, scoreId: string): Promise<StoredDecisionRecord | null> {
    return this.stored.get(scoreId) ?? null;
  }

  finishWrite(failure?: Error): void {
    this.release?.(failure);
  }
}

describe(DecisionRecords.name, () => {
  it('finds a decision while the statement that writes it is still running', async () => {
    const store = new HeldStore();
    const records = new DecisionRecords(store as unknown as DecisionRecordRepository, new SetAsideRows(new InMemorySetAsideStore()));
    records.add(tenant, decision('scr_1'), 1);

    const flushed = records.flush();
    await Promise.resolve();
    expect(store.stored.size).toBe(0);
    expect((await records.find(tenant, 'scr_1'))?.scoreId).toBe('scr_1');

    store.finishWrite();
    await flushed;
    expect((await records.find(tenant, 'scr_1'))?.scoreId).toBe('scr_1');
    expect(store.stored.has('scr_1')).toBe(true);
  });

  it('keeps a decision whose write failed readable, and writes it with the next flush', async () => {
    const store = new HeldStore();
    const records = new DecisionRecords(store as unknown as DecisionRecordRepository, new SetAsideRows(new InMemorySetAsideStore()));
    records.add(tenant, decision('scr_2'), 1);

    const failed = records.flush();
    await Promise.resolve();
    store.finishWrite(new Error('database unavailable'));
    await expect(failed).rejects.toThrow('database unavailable');
    expect((await records.find(tenant, 'scr_2'))?.scoreId).toBe('scr_2');

    const retried = records.flush();
    await Promise.resolve();
    store.finishWrite();
    await retried;
    expect(store.stored.has('scr_2')).toBe(true);
  });

  describe('a record the store refuses (ADR-0016)', () => {
    /** A table that refuses the records of one scoreId, as PostgreSQL refused a timestamp of 1e24 ms in a bigint column. */
    class RefusingStore implements Pick<DecisionRecordRepository, 'addAll' | 'find'> {
      readonly stored = new Map<string, StoredDecisionRecord>();
      refusedScoreId: string | undefined = 'scr_poisoned';
      down = false;

      async addAll(records: ReadonlyArray<StoredDecisionRecord & RuleTenant>): Promise<void> {
        if (this.down) throw new Error('Connection terminated unexpectedly');
        if (records.some((record) => record.scoreId === this.refusedScoreId)) {
          throw Object.assign(new Error('invalid input syntax for type bigint: "1e+24"'), { code: '22P02' });
        }
        for (const record of records) this.stored.set(record.scoreId, record);
      }

      async find(_tenant: RuleTenant, scoreId: string): Promise<StoredDecisionRecord | null> {
        return this.stored.get(scoreId) ?? null;
      }
    }

    function setup() {
      const store = new RefusingStore();
      const setAsideStore = new InMemorySetAsideStore();
      const setAside = new SetAsideRows(setAsideStore);
      return { store, setAside, setAsideStore, records: new DecisionRecords(store as unknown as DecisionRecordRepository, setAside) };
    }

    const flushOutcome = (records: DecisionRecords) => records.flush().then(() => 'written', () => 'not written');

    it('writes the other records at once, sets it aside after its attempts, and then records every later decision', async () => {
      const { store, records, setAsideStore } = setup();
      records.add(tenant, decision('scr_poisoned'), 1);
      records.add(tenant, decision('scr_good'), 1);

      expect(await flushOutcome(records)).toBe('not written');
      expect(store.stored.has('scr_good')).toBe(true);
      for (let attempt = 2; attempt < DEFAULT_ROW_ATTEMPTS; attempt += 1) expect(await flushOutcome(records)).toBe('not written');
      expect(setAsideStore.rows).toEqual([]);
      expect(await flushOutcome(records)).toBe('written');

      expect(setAsideStore.rows).toEqual([
        expect.objectContaining({ writer: 'decision-records', accountId: 'acc_1', environment: 'test', key: JSON.stringify(['acc_1', 'test', 'scr_poisoned']), attempts: DEFAULT_ROW_ATTEMPTS }),
      ]);
      records.add(tenant, decision('scr_next'), 2);
      expect(await flushOutcome(records)).toBe('written');
      expect(store.stored.has('scr_next')).toBe(true);
    });

    it('sets nothing aside while the store is down, and writes every record when it returns', async () => {
      const { store, records, setAsideStore } = setup();
      store.refusedScoreId = undefined;
      store.down = true;
      records.add(tenant, decision('scr_1'), 1);
      for (let flush = 0; flush < DEFAULT_ROW_ATTEMPTS + 2; flush += 1) expect(await flushOutcome(records)).toBe('not written');

      store.down = false;
      expect(await flushOutcome(records)).toBe('written');

      expect(setAsideStore.rows).toEqual([]);
      expect(store.stored.has('scr_1')).toBe(true);
    });

    it('writes a set-aside record when an operator replays it after the cause is fixed', async () => {
      const { store, records, setAside, setAsideStore } = setup();
      records.add(tenant, decision('scr_poisoned'), 1);
      for (let attempt = 0; attempt < DEFAULT_ROW_ATTEMPTS; attempt += 1) await flushOutcome(records);
      const [entry] = setAsideStore.rows;

      store.refusedScoreId = undefined;
      expect(await setAside.replay(entry.id)).toEqual(expect.objectContaining({ outcome: 'written' }));

      expect((await records.find(tenant, 'scr_poisoned'))?.scoreId).toBe('scr_poisoned');
      expect(setAsideStore.rows).toEqual([]);
    });
  });
});
