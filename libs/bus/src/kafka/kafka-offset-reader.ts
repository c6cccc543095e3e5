import type { Admin, Kafka } from 'kafkajs';

/** One partition's offset: an end offset (the offset after its last record) or a committed one. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: number;
}

/** A broker connection of kafkajs's cluster client: the one request used here. */
interface BrokerClient {
  offsetFetch(request: {
    groupId: string;
    topics: Array<{ topic: string; partitions: Array<{ partition: number }> }>;
  }): Promise<{ responses: Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }> }>;
}

/** What the barrier needs of kafkajs's cluster client; checked at run time, as it is not public API. */
interface ClusterClient {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  addMultipleTargetTopics(topics: string[]): Promise<void>;
  refreshMetadata(): Promise<void>;
  refreshMetadataIfNecessary(): Promise<void>;
  findTopicPartitionMetadata(topic: string): Array<{ partitionId: number }>;
  fetchTopicsOffset(
    topics: Array<{ topic: string; fromBeginning: boolean; partitions: Array<{ partition: number }> }>,
  ): Promise<Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>>;
  findGroupCoordinator(request: { groupId: string }): Promise<BrokerClient>;
}

const CLUSTER_METHODS = [
  'connect',
  'disconnect',
  'addMultipleTargetTopics',
  'refreshMetadata',
  'refreshMetadataIfNecessary',
  'findTopicPartitionMetadata',
  'fetchTopicsOffset',
  'findGroupCoordinator',
];
/** kafkajs 2.x builds every client's cluster with this factory, a symbol-keyed property of `Kafka`. */
const CREATE_CLUSTER = 'private:Kafka:createCluster';
const METADATA_MAX_AGE_MS = 300_000;

/**
 * Reads what the read barrier compares: the end offsets of every partition of a set of topics
 * (the high watermark; under transactions, the last stable offset, as kafkajs's consumers read
 * committed records only) and a group's committed offsets on them.
 *
 * kafkajs's public admin API is slow at both. `admin.fetchTopicOffsets` asks one topic at a time
 * and reads both ends of it: two ListOffsets requests per topic, 20 for the 10 entity topics a
 * checkpoint depends on. Sent at once on the admin's connection they took 44 ms on librdkafka's
 * mock (which stalls pipelined requests on one connection for about 40 ms once several are
 * outstanding); one after the other, 2–4 ms. `admin.fetchOffsets` looks the group's coordinator
 * up again before every OffsetFetch: two round trips per poll. kafkajs's cluster client, which
 * the admin, producer and consumers are built on, sends one ListOffsets for every partition a
 * broker leads (0.4 ms for the 10 topics), and the coordinator it found is kept here, so a poll
 * is one OffsetFetch. That client is not public API, so `create` checks that it is there and has
 * what is used here; if a kafkajs version lacks it, the reads fall back to the public API (end
 * offsets one topic at a time, never pipelined), and `direct` says which is in use.
 */
export class KafkaOffsetReader {
  private readonly knownTopics = new Set<string>();
  private readonly coordinators = new Map<string, BrokerClient>();

  private constructor(
    private readonly cluster: ClusterClient | undefined,
    private readonly admin: Admin,
  ) {}

  /** Builds the reader; `connect()` before `read`. `admin` must be connected by its owner. */
  static create(kafka: Kafka, admin: Admin): KafkaOffsetReader {
    return new KafkaOffsetReader(clusterClientOf(kafka), admin);
  }

  /** True when the reads go through kafkajs's cluster client; false on the public-API fallback. */
  get direct(): boolean {
    return this.cluster !== undefined;
  }

  async connect(): Promise<void> {
    await this.cluster?.connect();
  }

  async disconnect(): Promise<void> {
    await this.cluster?.disconnect();
  }

  /** The end offset (offset after the last record) of every partition of the topics. */
  async readEnds(topics: readonly string[]): Promise<PartitionOffset[]> {
    const cluster = this.cluster;
    if (cluster === undefined) return this.readEndsOneTopicAtATime(topics);
    return this.withOneRetry(cluster, async () => {
      const answer = await cluster.fetchTopicsOffset((await this.partitionsOf(cluster, topics)).map((entry) => ({ ...entry, fromBeginning: false })));
      return flatten(answer);
    });
  }

  /** The group's committed offsets (the next offset it will consume) on every partition of the topics; -1 where none. */
  async readCommitted(groupId: string, topics: readonly string[]): Promise<PartitionOffset[]> {
    const cluster = this.cluster;
    if (cluster === undefined) return flatten(await this.admin.fetchOffsets({ groupId, topics: [...topics] }));
    return this.withOneRetry(cluster, async () => {
      let coordinator = this.coordinators.get(groupId);
      if (coordinator === undefined) {
        coordinator = await cluster.findGroupCoordinator({ groupId });
        this.coordinators.set(groupId, coordinator);
      }
      const { responses } = await coordinator.offsetFetch({ groupId, topics: await this.partitionsOf(cluster, topics) });
      return flatten(responses);
    });
  }

  /**
   * A leader or the coordinator moved, or the metadata is stale (a new partition): forget the
   * coordinators, refresh the metadata and ask once more.
   */
  private async withOneRetry<T>(cluster: ClusterClient, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch {
      this.coordinators.clear();
      await cluster.refreshMetadata();
      return read();
    }
  }

  private async partitionsOf(cluster: ClusterClient, topics: readonly string[]): Promise<Array<{ topic: string; partitions: Array<{ partition: number }> }>> {
    if (topics.some((topic) => !this.knownTopics.has(topic))) {
      // Metadata is fetched when the set of topics grows, then kept (and refreshed when old).
      await cluster.addMultipleTargetTopics([...topics]);
      for (const topic of topics) this.knownTopics.add(topic);
    }
    await cluster.refreshMetadataIfNecessary();
    return topics.map((topic) => ({ topic, partitions: cluster.findTopicPartitionMetadata(topic).map(({ partitionId }) => ({ partition: partitionId })) }));
  }

  private async readEndsOneTopicAtATime(topics: readonly string[]): Promise<PartitionOffset[]> {
    const ends: PartitionOffset[] = [];
    for (const topic of topics) {
      for (const { partition, high } of await this.admin.fetchTopicOffsets(topic)) ends.push({ topic, partition, offset: Number(high) });
    }
    return ends;
  }
}

function flatten(answer: ReadonlyArray<{ topic: string; partitions: ReadonlyArray<{ partition: number; offset: string }> }>): PartitionOffset[] {
  return answer.flatMap(({ topic, partitions }) => partitions.map(({ partition, offset }) => ({ topic, partition, offset: Number(offset) })));
}

function clusterClientOf(kafka: Kafka): ClusterClient | undefined {
  const symbol = Object.getOwnPropertySymbols(kafka).find((candidate) => candidate.description === CREATE_CLUSTER);
  const factory: unknown = symbol === undefined ? undefined : (kafka as unknown as Record<symbol, unknown>)[symbol];
  if (typeof factory !== 'function') return undefined;
  const cluster: unknown = factory({ metadataMaxAge: METADATA_MAX_AGE_MS, allowAutoTopicCreation: false });
  if (typeof cluster !== 'object' || cluster === null) return undefined;
  const methods = cluster as Record<string, unknown>;
  return CLUSTER_METHODS.every((name) => typeof methods[name] === 'function') ? (cluster as ClusterClient) : undefined;
}
