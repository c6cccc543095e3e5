import { SILENT_BUS_LOGGER } from '../bus-logger';
import { InMemoryEventLogStore } from '../test-support/in-memory-event-log.store';
import { type CommittableLane, OffsetCommitter } from './offset-committer';

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
});
