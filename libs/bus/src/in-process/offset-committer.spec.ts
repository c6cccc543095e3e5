import { SILENT_BUS_LOGGER } from '../bus-logger';
import { InMemoryEventLogStore } from '../test-support/in-memory-event-log.store';
import { type CommittableLane, MAX_RETRY_DELAY_MS, OffsetCommitter } from './offset-committer';

function lane(group: string, topic: string, handledUpTo: number, beforeCommit?: () => Promise<void>): CommittableLane {
  return { group, topic, handledUpTo, committedUpTo: 0, beforeCommit };
}

class CountingEventLog extends InMemoryEventLogStore {
  statements = 0;
  override async commitOffsets(offsets: ReadonlyArray<{ group: string; topic: string; sequence: number }>): Promise<void> {
    this.statements += 1;
    await super.commitOffsets(offsets);
  }
}

describe(OffsetCommitter.name, () => {
  it('commits every lane in one statement after flushing each write-behind hook once', async () => {
    const eventLog = new CountingEventLog();
    const committer = new OffsetCommitter(eventLog, 0, SILENT_BUS_LOGGER);
    let flushes = 0;
    const flush = async () => void (flushes += 1);
    const lanes = [lane('ingestion', 'a', 3, flush), lane('ingestion', 'b', 5, flush), lane('graph', 'a', 4)];
    lanes.forEach((entry) => committer.register(entry));

    committer.progressed();
    await committer.stop();

    expect(flushes).toBe(1);
    expect(eventLog.statements).toBe(1);
    expect(await eventLog.committedOffset('ingestion', 'b')).toBe(5);
    expect(await eventLog.committedOffset('graph', 'a')).toBe(4);
    expect(lanes.map((entry) => entry.committedUpTo)).toEqual([3, 5, 4]);
  });

  it("leaves a lane uncommitted when its flush fails, and commits the others", async () => {
    const eventLog = new CountingEventLog();
    const committer = new OffsetCommitter(eventLog, 0, SILENT_BUS_LOGGER);
    const failing = lane('graph', 'a', 7, () => Promise.reject(new Error('the database is down')));
    const fine = lane('ingestion', 'a', 9);
    committer.register(failing);
    committer.register(fine);

    await committer.stop();

    expect(await eventLog.committedOffset('graph', 'a')).toBe(0);
    expect(failing.committedUpTo).toBe(0);
    expect(await eventLog.committedOffset('ingestion', 'a')).toBe(9);
  });

  it('waits out the interval between two commits, and commits what was handled meanwhile with the second', async () => {
    const eventLog = new CountingEventLog();
    const committer = new OffsetCommitter(eventLog, 100, SILENT_BUS_LOGGER);
    const consumer = { ...lane('ingestion', 'a', 1) };
    committer.register(consumer);
    committer.progressed();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(eventLog.statements).toBe(1);
    (consumer as { handledUpTo: number }).handledUpTo = 2;
    committer.progressed();
    (consumer as { handledUpTo: number }).handledUpTo = 3;
    committer.progressed();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(eventLog.statements).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(eventLog.statements).toBe(2);
    expect(await eventLog.committedOffset('ingestion', 'a')).toBe(3);
  });

  describe('a flush that fails in an idle system (ADR-0016)', () => {
    afterEach(() => jest.useRealTimers());

    it('is tried again on its own, without new progress, after the interval and then twice as long each time, until it commits', async () => {
      jest.useFakeTimers();
      const eventLog = new CountingEventLog();
      const committer = new OffsetCommitter(eventLog, 100, SILENT_BUS_LOGGER);
      let flushes = 0;
      const graph = lane('graph', 'a', 7, async () => {
        flushes += 1;
        if (flushes <= 2) throw new Error('a row the store refuses, with attempts left');
      });
      committer.register(graph);

      committer.progressed();
      await jest.advanceTimersByTimeAsync(0);
      expect(flushes).toBe(1);
      await jest.advanceTimersByTimeAsync(100);
      expect(flushes).toBe(2);
      await jest.advanceTimersByTimeAsync(199);
      expect(flushes).toBe(2);
      await jest.advanceTimersByTimeAsync(1);

      expect(flushes).toBe(3);
      expect(graph.committedUpTo).toBe(7);
      await jest.advanceTimersByTimeAsync(MAX_RETRY_DELAY_MS * 2);
      expect(flushes).toBe(3);
      await committer.stop();
    });

    it('backs off to at most MAX_RETRY_DELAY_MS while the flush keeps failing, and stops trying once stopped', async () => {
      jest.useFakeTimers();
      const committer = new OffsetCommitter(new CountingEventLog(), 100, SILENT_BUS_LOGGER);
      let flushes = 0;
      committer.register(lane('graph', 'a', 7, () => Promise.reject(new Error(`the database is down (${(flushes += 1)})`))));
      committer.progressed();
      await jest.advanceTimersByTimeAsync(60_000);
      const afterAMinute = flushes;
      await jest.advanceTimersByTimeAsync(MAX_RETRY_DELAY_MS);
      expect(flushes).toBe(afterAMinute + 1);

      await committer.stop();
      const stoppedAt = flushes;
      await jest.advanceTimersByTimeAsync(MAX_RETRY_DELAY_MS * 3);
      expect(flushes).toBe(stoppedAt);
    });
  });
});
