import type { Admin, Kafka } from 'kafkajs';

/** One partition's offset: an end offset (the offset after its last record) or a committed one. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: number;
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
}

const CLUSTER_METHODS = ['connect', 'disconnect', 'addMultipleTargetTopics', 'refreshMetadata', 'refreshMetadataIfNecessary', 'findTopicPartitionMetadata', 'fetchTopicsOffset'];
/** kafkajs 2.x builds every client's cluster with this factory, a symbol-keyed property of `Kafka`. */
const CREATE_CLUSTER = 'private:Kafka:createCluster';
const METADATA_MAX_AGE_MS = 300_000;

/**
 * Reads the end offsets of every partition of a set of topics (the high watermark; under
 * transactions, the last stable offset, as kafkajs's consumers read committed records only).
 *
 * kafkajs's public `admin.fetchTopicOffsets` asks one topic at a time and reads both ends of it:
 * two ListOffsets requests per topic, 20 for the 10 entity topics a checkpoint depends on. Sent
 * at once on the admin's connection they took 44 ms on librdkafka's mock (which stalls
 * pipelined requests on one connection for about 40 ms once several are outstanding); one after
 * the other, 2–4 ms. kafkajs's cluster client, which the admin, producer and consumers are built
 * on, sends one ListOffsets for every partition a broker leads: 0.4 ms. That client is not
 * public API, so `create` checks that it is there and has what is used here; if a kafkajs
 * version lacks it, the reads fall back to the public API, one topic at a time (never
 * pipelined), and `batched` says which is in use.
 */
export class KafkaEndOffsets {
  private readonly knownTopics = new Set<string>();

  private constructor(
    private readonly cluster: ClusterClient | undefined,
    private readonly admin: Admin,
  ) {}

  /** Builds the reader; `connect()` before `read`. `admin` must be connected by its owner. */
  static create(kafka: Kafka, admin: Admin): KafkaEndOffsets {
    return new KafkaEndOffsets(clusterClientOf(kafka), admin);
  }

  /** True when the reads are one ListOffsets per broker; false on the public-API fallback. */
  get batched(): boolean {
    return this.cluster !== undefined;
  }

  async connect(): Promise<void> {
    await this.cluster?.connect();
  }

  async disconnect(): Promise<void> {
    await this.cluster?.disconnect();
  }

  async read(topics: readonly string[]): Promise<PartitionOffset[]> {
    if (this.cluster === undefined) return this.readOneTopicAtATime(topics);
    try {
      return await this.readBatched(this.cluster, topics);
    } catch {
      // A leader moved or the metadata is stale (a new partition): refresh it and ask once more.
      await this.cluster.refreshMetadata();
      return this.readBatched(this.cluster, topics);
    }
  }

  private async readBatched(cluster: ClusterClient, topics: readonly string[]): Promise<PartitionOffset[]> {
    if (topics.some((topic) => !this.knownTopics.has(topic))) {
      // Metadata is fetched when the set of topics grows, then kept (and refreshed when old).
      await cluster.addMultipleTargetTopics([...topics]);
      for (const topic of topics) this.knownTopics.add(topic);
    }
    await cluster.refreshMetadataIfNecessary();
    const request = topics.map((topic) => ({
      topic,
      fromBeginning: false,
      partitions: cluster.findTopicPartitionMetadata(topic).map(({ partitionId }) => ({ partition: partitionId })),
    }));
    const answer = await cluster.fetchTopicsOffset(request);
    return answer.flatMap(({ topic, partitions }) => partitions.map(({ partition, offset }) => ({ topic, partition, offset: Number(offset) })));
  }

  private async readOneTopicAtATime(topics: readonly string[]): Promise<PartitionOffset[]> {
    const ends: PartitionOffset[] = [];
    for (const topic of topics) {
      for (const { partition, high } of await this.admin.fetchTopicOffsets(topic)) ends.push({ topic, partition, offset: Number(high) });
    }
    return ends;
  }
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
