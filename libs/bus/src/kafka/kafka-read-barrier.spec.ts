import type { PartitionOffset } from './kafka-offset-reader';
import { KafkaReadBarrier } from './kafka-read-barrier';

const TOPIC = 'ringfence.ingest.customer.updated.v1';
const OTHER = 'ringfence.ingest.supplier.updated.v1';
const GROUP = 'ingestion';
const POLL_MS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A broker as the barrier sees it: end offsets and one group's committed offsets, counted. */
class FakeBroker {
  ends: PartitionOffset[] = [];
  committed: PartitionOffset[] = [];
  endReads = 0;
  committedReads = 0;
  failCommitted: Error | undefined;
  readDelayMs = 0;

  barrier(pollIntervalMs = POLL_MS): KafkaReadBarrier {
    return new KafkaReadBarrier({
      readEnds: async (topics) => {
        this.endReads += 1;
        await sleep(this.readDelayMs);
        return this.ends.filter(({ topic }) => topics.includes(topic));
      },
      readCommitted: async (groupId, topics) => {
        expect(groupId).toBe(`ringfence.${GROUP}`);
        this.committedReads += 1;
        await sleep(this.readDelayMs);
        if (this.failCommitted) throw this.failCommitted;
        return this.committed.filter(({ topic }) => topics.includes(topic));
      },
      groupIdOf: (group) => `ringfence.${group}`,
      pollIntervalMs,
    });
  }
}

const dependency = [{ group: GROUP, topics: [TOPIC, OTHER] }];
const soon = (ms = 2_000) => Date.now() + ms;

describe(KafkaReadBarrier.name, () => {
  it('passes at once when the end offsets are empty or already handled in this process, without reading committed offsets', async () => {
    const broker = new FakeBroker();
    broker.ends = [
      { topic: TOPIC, partition: 0, offset: 3 },
      { topic: TOPIC, partition: 1, offset: 0 },
      { topic: OTHER, partition: 0, offset: 0 },
    ];
    const barrier = broker.barrier();
    barrier.recordHandled(GROUP, TOPIC, 0, '2');

    await expect(barrier.caughtUp(dependency, soon())).resolves.not.toBeNull();
    expect(broker.committedReads).toBe(0);
  });

  it('waits on a group of another process until its committed offsets reach the end offsets read after the call', async () => {
    const broker = new FakeBroker();
    broker.ends = [{ topic: TOPIC, partition: 0, offset: 5 }];
    broker.committed = [{ topic: TOPIC, partition: 0, offset: 4 }];
    const barrier = broker.barrier();

    let settled: unknown;
    const waiting = barrier.caughtUp(dependency, soon()).then((caughtUp) => (settled = caughtUp));
    await sleep(5 * POLL_MS);
    expect(settled).toBeUndefined();
    // The offset of the last record is not enough: the committed offset is the next one to consume.
    broker.committed = [{ topic: TOPIC, partition: 0, offset: 5 }];
    await expect(waiting).resolves.not.toBeNull();
  });

  it('does not count a record of another group, nor a lower partition, as reached', async () => {
    const broker = new FakeBroker();
    broker.ends = [
      { topic: TOPIC, partition: 0, offset: 1 },
      { topic: TOPIC, partition: 1, offset: 1 },
    ];
    const barrier = broker.barrier();
    barrier.recordHandled('graph', TOPIC, 0, '0');
    barrier.recordHandled(GROUP, TOPIC, 0, '0');

    await expect(barrier.caughtUp(dependency, Date.now() + 30)).resolves.toBeNull();
  });

  it('remembers what it saw committed: a call whose end offsets were reached before asks the broker nothing more', async () => {
    const broker = new FakeBroker();
    broker.ends = [{ topic: TOPIC, partition: 0, offset: 5 }];
    broker.committed = [{ topic: TOPIC, partition: 0, offset: 5 }];
    const barrier = broker.barrier();
    await expect(barrier.caughtUp(dependency, soon())).resolves.not.toBeNull();
    expect(broker.committedReads).toBe(1);

    await expect(barrier.caughtUp(dependency, soon())).resolves.not.toBeNull();
    expect(broker.committedReads).toBe(1);
    expect(broker.endReads).toBe(2);
  });

  it('polls a group once per interval however many requests wait on it, and stops polling once none waits', async () => {
    const broker = new FakeBroker();
    broker.ends = [{ topic: TOPIC, partition: 0, offset: 5 }];
    const barrier = broker.barrier();

    const startedAt = Date.now();
    const waiting = Array.from({ length: 50 }, () => barrier.caughtUp(dependency, soon()));
    await sleep(20 * POLL_MS);
    broker.committed = [{ topic: TOPIC, partition: 0, offset: 5 }];
    expect((await Promise.all(waiting)).every((ends) => ends !== null)).toBe(true);
    const elapsedMs = Date.now() - startedAt;

    // One read at once, then at most one per interval (timers only run late, never early).
    expect(broker.committedReads).toBeLessThanOrEqual(elapsedMs / POLL_MS + 2);
    // The 50 calls that came together shared their end-offset reads.
    expect(broker.endReads).toBeLessThanOrEqual(2);
    const reads = broker.committedReads;
    await sleep(10 * POLL_MS);
    expect(broker.committedReads).toBe(reads);
  });

  it('answers false at the deadline when the group never catches up, and then stops polling', async () => {
    const broker = new FakeBroker();
    broker.ends = [{ topic: TOPIC, partition: 0, offset: 5 }];
    broker.committed = [{ topic: TOPIC, partition: 0, offset: 2 }];
    const barrier = broker.barrier();

    const startedAt = Date.now();
    await expect(barrier.caughtUp(dependency, startedAt + 60)).resolves.toBeNull();
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(55);
    expect(Date.now() - startedAt).toBeLessThan(500);
    const reads = broker.committedReads;
    await sleep(10 * POLL_MS);
    expect(broker.committedReads).toBeLessThanOrEqual(reads + 1);
  });

  it('names, at the deadline, the groups that had not caught up (waitFor), and only those', async () => {
    const broker = new FakeBroker();
    broker.ends = [{ topic: TOPIC, partition: 0, offset: 5 }];
    broker.committed = [{ topic: TOPIC, partition: 0, offset: 2 }];
    const barrier = broker.barrier();
    // The other group is known to have handled everything in this process.
    barrier.recordHandled('velocity', OTHER, 0, '9');

    const outcome = await barrier.waitFor([...dependency, { group: 'velocity', topics: [OTHER] }], Date.now() + 40);

    expect(outcome).toEqual({ behind: [GROUP] });
  });

  it('answers false at the deadline even while a committed-offset read hangs', async () => {
    const broker = new FakeBroker();
    broker.ends = [{ topic: TOPIC, partition: 0, offset: 5 }];
    const barrier = broker.barrier();
    broker.readDelayMs = 1_000;

    const startedAt = Date.now();
    await expect(barrier.caughtUp(dependency, startedAt + 1_050 + 50)).resolves.toBeNull();
    expect(Date.now() - startedAt).toBeLessThan(1_600);
  });

  it('rejects the waiting calls when reading committed offsets fails, as a failed read always did', async () => {
    const broker = new FakeBroker();
    broker.ends = [{ topic: TOPIC, partition: 0, offset: 5 }];
    broker.failCommitted = new Error('coordinator not available');
    const barrier = broker.barrier();

    await expect(Promise.all([barrier.caughtUp(dependency, soon()), barrier.caughtUp(dependency, soon())])).rejects.toThrow('coordinator not available');
    broker.failCommitted = undefined;
    broker.committed = [{ topic: TOPIC, partition: 0, offset: 5 }];
    await expect(barrier.caughtUp(dependency, soon())).resolves.not.toBeNull();
  });

  it('waits for the end offsets the request brought without reading them, and answers what it waited for', async () => {
    const broker = new FakeBroker();
    broker.ends = [{ topic: TOPIC, partition: 0, offset: 9 }];
    const barrier = broker.barrier();
    // Read by the process that sent the request, after the request it was answering was sent.
    const known = [
      { topic: TOPIC, partition: 0, offset: 3 },
      { topic: OTHER, partition: 0, offset: 1 },
    ];

    let settled: unknown;
    const waiting = barrier.caughtUp(dependency, soon(), known).then((ends) => (settled = ends));
    await sleep(4 * POLL_MS);
    expect(settled).toBeUndefined();
    broker.committed = [
      { topic: TOPIC, partition: 0, offset: 3 },
      { topic: OTHER, partition: 0, offset: 1 },
    ];
    await expect(waiting).resolves.toEqual(known);
    expect(broker.endReads).toBe(0);
  });

  it('reads the end offsets of only the topics the request brought none of', async () => {
    const broker = new FakeBroker();
    broker.ends = [
      { topic: TOPIC, partition: 0, offset: 7 },
      { topic: OTHER, partition: 0, offset: 2 },
    ];
    const read: string[][] = [];
    const barrier = new KafkaReadBarrier({
      readEnds: async (topics) => {
        read.push([...topics]);
        return broker.ends.filter(({ topic }) => topics.includes(topic));
      },
      readCommitted: async () => [],
      groupIdOf: (group) => group,
    });
    barrier.recordHandled(GROUP, TOPIC, 0, '0');
    barrier.recordHandled(GROUP, OTHER, 0, '1');

    await expect(barrier.caughtUp(dependency, soon(), [{ topic: TOPIC, partition: 0, offset: 1 }])).resolves.toEqual([
      { topic: TOPIC, partition: 0, offset: 1 },
      { topic: OTHER, partition: 0, offset: 2 },
    ]);
    expect(read).toEqual([[OTHER]]);
  });

  it("reads every group's topics and the read-ahead ones in one read, and returns the read-ahead ends without waiting for them", async () => {
    const THIRD = 'ringfence.label.customer.updated.v1';
    const ends = [
      { topic: TOPIC, partition: 0, offset: 1 },
      { topic: OTHER, partition: 0, offset: 1 },
      { topic: THIRD, partition: 0, offset: 9 },
    ];
    const read: string[][] = [];
    const barrier = new KafkaReadBarrier({
      readEnds: async (topics) => {
        read.push([...topics]);
        return ends.filter(({ topic }) => topics.includes(topic));
      },
      readCommitted: async () => [],
      groupIdOf: (group) => group,
    });
    barrier.recordHandled(GROUP, TOPIC, 0, '0');
    barrier.recordHandled('graph', OTHER, 0, '0');

    // Nobody here consumes THIRD: waiting for it would time out, but it is only read ahead.
    const waitedFor = await barrier.caughtUp([{ group: GROUP, topics: [TOPIC] }, { group: 'graph', topics: [OTHER] }], soon(), [], [THIRD, TOPIC]);
    expect(waitedFor).toEqual(ends);
    expect(read).toEqual([[TOPIC, OTHER, THIRD]]);
  });

  it('needs every named group and every partition behind to catch up', async () => {
    const broker = new FakeBroker();
    broker.ends = [
      { topic: TOPIC, partition: 0, offset: 2 },
      { topic: TOPIC, partition: 1, offset: 2 },
    ];
    const barrier = broker.barrier();
    barrier.recordHandled(GROUP, TOPIC, 0, '1');
    barrier.recordHandled('graph', TOPIC, 0, '1');
    barrier.recordHandled('graph', TOPIC, 1, '1');
    const both = [...dependency, { group: 'graph', topics: [TOPIC] }];

    let settled: unknown;
    const waiting = barrier.caughtUp(both, soon()).then((caughtUp) => (settled = caughtUp));
    await sleep(4 * POLL_MS);
    expect(settled).toBeUndefined();
    // Handled here, seen by the poller on its next round.
    barrier.recordHandled(GROUP, TOPIC, 1, '1');
    await expect(waiting).resolves.not.toBeNull();
  });
});
