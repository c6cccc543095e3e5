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
 * `admin.fetchTopicOffsets` asks one topic at a time (two ListOffsets requests each). Sent all at
 * once on the admin's one connection, the 20 requests of the 10 entity topics a checkpoint
 * depends on took about 44 ms on librdkafka's mock, which stalls pipelined requests on one
 * connection; one after the other they take 2–4 ms, so they go one after the other. kafkajs's
 * internal cluster client could ask for every topic in one request, but it is not public API and
 * is not used.
 */
export class KafkaOffsetReader {
  constructor(private readonly admin: Admin) {}

  /** The end offset (offset after the last record) of every partition of the topics. */
  async readEnds(topics: readonly string[]): Promise<PartitionOffset[]> {
    const ends: PartitionOffset[] = [];
    for (const topic of topics) {
      for (const { partition, high } of await this.admin.fetchTopicOffsets(topic)) ends.push({ topic, partition, offset: Number(high) });
    }
    return ends;
  }

  /** The group's committed offsets (the next offset it will consume) on every partition of the topics; -1 where none. */
  async readCommitted(groupId: string, topics: readonly string[]): Promise<PartitionOffset[]> {
    const answer = await this.admin.fetchOffsets({ groupId, topics: [...topics] });
    return answer.flatMap(({ topic, partitions }) => partitions.map(({ partition, offset }) => ({ topic, partition, offset: Number(offset) })));
  }
}
