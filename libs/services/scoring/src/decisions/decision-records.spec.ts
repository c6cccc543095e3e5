import type { CheckpointScoredEvent } from '@ringfence/contracts';
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
    const records = new DecisionRecords(store as unknown as DecisionRecordRepository);
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
    const records = new DecisionRecords(store as unknown as DecisionRecordRepository);
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
});
