import type { Admin } from 'kafkajs';

/** One partition's offset: an end offset (the offset after its last record) or a committed one. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: number;
}

/**
 * Reads what the read barrier compares, through kafkajs's public admin API: the end offsets of
 * every partition of a set of topics (the high watermark; under transactions, the last stable
 * offset, as kafkajs's consumers read committed records only) and a group's committed offsets
 * on them.
 *
 * `admin.fetchTopicOffsets` asks one topic at a time (two ListOffsets requests each), and
 * librdkafka's mock stalls requests pipelined on one connection: sent all at once on one
 * admin's connection, the 20 requests of 10 topics took about 44 ms there. So each admin client
 * (one connection) carries one read at a time, and the topics of a read are shared out over
 * several admin clients, which read side by side. kafkajs's internal cluster client could ask
 * for every topic in one request, but it is not public API and is not used.
 */
export class KafkaOffsetReader {
  private readonly lanes: AdminLane[];

  /** `admins`: connected admin clients, each used by this reader alone. */
  constructor(admins: readonly Admin[]) {
    if (admins.length === 0) throw new RangeError('the offset reader needs an admin client');
    this.lanes = admins.map((admin) => new AdminLane(admin));
  }

  /** The end offset (offset after the last record) of every partition of the topics. */
  async readEnds(topics: readonly string[]): Promise<PartitionOffset[]> {
    const shares = this.lanes.map((lane, index) => ({ lane, topics: topics.filter((_, position) => position % this.lanes.length === index) }));
    const answers = await Promise.all(
      shares
        .filter((share) => share.topics.length > 0)
        .map(({ lane, topics: share }) =>
          lane.run(async (admin) => {
            const ends: PartitionOffset[] = [];
            for (const topic of share) {
              for (const { partition, high } of await admin.fetchTopicOffsets(topic)) ends.push({ topic, partition, offset: Number(high) });
            }
            return ends;
          }),
        ),
    );
    return answers.flat();
  }

  /** The group's committed offsets (the next offset it will consume) on every partition of the topics; -1 where none. */
  readCommitted(groupId: string, topics: readonly string[]): Promise<PartitionOffset[]> {
    return this.lanes[0].run(async (admin) => {
      const answer = await admin.fetchOffsets({ groupId, topics: [...topics] });
      return answer.flatMap(({ topic, partitions }) => partitions.map(({ partition, offset }) => ({ topic, partition, offset: Number(offset) })));
    });
  }
}

/** One admin client carrying one read at a time: the next starts when the one before it has ended. */
class AdminLane {
  private previous: Promise<unknown> = Promise.resolve();

  constructor(private readonly admin: Admin) {}

  run<T>(read: (admin: Admin) => Promise<T>): Promise<T> {
    const next = this.previous.then(
      () => read(this.admin),
      () => read(this.admin),
    );
    this.previous = next.catch(() => undefined);
    return next;
  }
}
