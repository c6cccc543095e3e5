import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { type MessageEnvelope, type PayloadFacts, payloadFacts, toWireJson } from '@ringfence/contracts';
import { isRowRefusal } from '@ringfence/persistence';
import { VELOCITY_SNAPSHOT_STORE, type VelocitySnapshotStore } from '@ringfence/scoring-store';
import { type Logger, RateLimitedError, type RingfenceConfig, type RowWriter, RowsNotWrittenError, SetAsideRows, accountShareOf, exponentialBackoffMs } from '@ringfence/platform';
import {
  VELOCITY_FEATURE_DEFINITIONS,
  type VelocityDimension,
  type TransactionDispute,
  VelocityFeatures,
  type VelocityScope,
  type VelocityTenantChanges,
  disputeVelocityEvent,
  transactionDisputeOfFacts,
  velocityEventOfFacts,
  velocityFeatureRecord,
} from '@ringfence/scoring-engine';
import { READINESS_CHECKS, RINGFENCE_CONFIG, ROOT_LOGGER, type ReadinessCheck, metricsRegistry } from '@ringfence/service-runtime';
import { LRUCache } from 'lru-cache';
import { Gauge } from 'prom-client';
import { CheckpointFacts } from './checkpoint-facts';

/** What the load at start read, for the log line and the benchmark. */
export interface VelocityLoadReport {
  keys: number;
  occurrences: number;
  recordedEventIds: number;
  /** Stored keys that could not be read back (logged; their counts start again from zero). */
  unreadableKeys: number;
  elapsedMs: number;
}

/** The writer's name in set-aside rows, metrics and logs. */
export const VELOCITY_WRITER = 'velocity-counters';

/** Rows read per statement while loading at start. */
const LOAD_PAGE_SIZE = 10_000;
/** Waits between attempts to load the counters: 0.5 s doubling to 30 s. */
const LOAD_BACKOFF = { initialDelayMs: 500, maxDelayMs: 30_000, jitter: 0 };
/**
 * How long the store keeps the ids of the events its writes covered (behind the newest write):
 * the replay after a crash starts at the committed offset, which trails the last write by about
 * one commit interval; ten minutes leave room for a commit that keeps failing meanwhile.
 */
export const VELOCITY_RECORDED_EVENTS_RETENTION_MILLIS = 10 * 60_000;
/**
 * Feature vectors computed just before their checkpoint's own event was recorded, kept for the
 * checkpoint to take (its request arrives after the event: the bus's read-your-writes barrier
 * waits for this consumer). Bounded; a vector not taken (an ingest-only update, a rate-limited
 * checkpoint) expires.
 */
const DECIDED_VECTORS = { max: 4_096, ttl: 60_000 };
/** Seconds an account told it holds its share is asked to wait: keys are forgotten only as they idle out. */
const OVER_SHARE_RETRY_AFTER_SECONDS = 60;

/** A checkpoint's velocity before its own event was recorded, and whether that event named a key the account could not add. */
interface DecidedVector {
  vector: Float64Array;
  newKeysRefused: boolean;
}

let measured: VelocityFeatures | undefined;
new Gauge({
  name: 'ringfence_velocity_keys',
  help: 'Velocity keys (customer, card, device, e-mail, phone, IP, merchant) held in memory, all tenants',
  registers: [metricsRegistry],
  collect() {
    this.set(measured?.stats().keys ?? 0);
  },
});
new Gauge({
  name: 'ringfence_velocity_accounts_at_share',
  help: 'Accounts holding their share of velocity keys (ACCOUNT_SHARE_PERCENT of VELOCITY_MAX_KEYS): their events make no new key',
  registers: [metricsRegistry],
  collect() {
    this.set(measured?.stats().accountsAtShare ?? 0);
  },
});

/**
 * Scoring's velocity counters (ADR-0012, libs/scoring-engine/src/velocity): fed by every
 * checkpoint's ingest event (`VelocityConsumer`, group `scoring-velocity`), read at checkpoints
 * from memory, written behind to `VELOCITY_SNAPSHOT_STORE`.
 *
 * - **Start**: every stored key, the occurrences of the last days and the ids of the events the
 *   last writes covered are loaded before the first event is handled (the consumer waits for
 *   it), and /health/ready says not ready until then, as the graph does for its rebuild.
 * - **Write behind, offsets last**: `flush` (the consumer's `beforeCommit`) takes everything
 *   changed since the last flush at once and writes it in one statement; the bus commits the
 *   offsets only after that. A failed write gives the changes back for the next flush.
 * - **No double counting after a crash**: the replay starts at the committed offset, and events
 *   handled after the offsets were read but before the write took its snapshot are in the
 *   snapshot too. Each write therefore stores the ids of the events it covers, and the load
 *   gives them back to `VelocityFeatures`, which drops a replayed id (dedup by event id, not a
 *   per-key high-water mark: a key's events come from many partitions, out of order).
 * - **Checkpoints**: `featuresFor` answers synchronously from memory.
 * - **One tenant's refused write holds no other up** (ADR-0016): each tenant's changes are
 *   a row of `RowWriter` (writer `velocity-counters`), so changes the store refuses are set aside
 *   after their attempts and the other tenants' are written; the counters in memory keep them.
 */
@Injectable()
export class VelocityState implements OnModuleInit, OnApplicationBootstrap {
  private features: VelocityFeatures;
  private loaded: Promise<VelocityLoadReport> | undefined;
  private loadedReport: VelocityLoadReport | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly decided = new LRUCache<string, DecidedVector>(DECIDED_VECTORS);
  private readonly writer: RowWriter<VelocityTenantChanges>;

  constructor(
    @Inject(VELOCITY_SNAPSHOT_STORE) private readonly store: VelocitySnapshotStore,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    @Inject(READINESS_CHECKS) private readonly readinessChecks: ReadinessCheck[],
    @Inject(RINGFENCE_CONFIG) private readonly config: Pick<RingfenceConfig, 'velocityMaxKeys' | 'accountSharePercent'>,
    setAside: SetAsideRows,
    private readonly facts: CheckpointFacts,
  ) {
    this.features = this.emptyFeatures();
    this.writer = setAside.writer<VelocityTenantChanges>(
      {
        name: VELOCITY_WRITER,
        writeAll: (changes) => {
          const now = Date.now();
          return store.write(changes, now, now - VELOCITY_RECORDED_EVENTS_RETENTION_MILLIS);
        },
        identify: ({ scope }) => ({ accountId: scope.accountId, environment: scope.environment, key: JSON.stringify([scope.accountId, scope.environment]) }),
        isUnavailable: (error) => !isRowRefusal(error),
      },
      (row) => this.replay(row as VelocityTenantChanges),
    );
  }

  onModuleInit(): void {
    this.readinessChecks.push({ name: 'velocity', isReady: async () => this.isReady() });
    measured = this.features;
  }

  onApplicationBootstrap(): void {
    void this.load();
  }

  /** Loads the stored counters (once; later calls return the same promise), retrying while the store cannot be read. */
  load(): Promise<VelocityLoadReport> {
    this.loaded ??= this.loadWithRetries();
    return this.loaded;
  }

  isReady(): boolean {
    return this.loadedReport !== undefined;
  }

  /**
   * Records one ingest event (validated, on `topic`). The features of a checkpoint's own event
   * are computed first, before it is recorded, for `featuresFor`.
   */
  async record(topic: string, message: MessageEnvelope<object>): Promise<void> {
    await this.load();
    const wire = toWireJson(message.payload);
    // One reading of what the payload names, for the dispute check and the event alike.
    const facts = payloadFacts(wire);
    const dispute = transactionDisputeOfFacts(topic, facts);
    if (dispute !== undefined) return this.recordDispute(message, dispute, wire.timestamp as number);
    const event = velocityEventOfFacts(topic, facts, message.eventId);
    if (event === null) return;
    const scope = scopeOf(message);
    const before = this.features.featureVectorAt(scope, event.keys, event.timestampMillis);
    const outcome = this.features.record(scope, event);
    if (outcome !== 'duplicate') this.decided.set(decisionKey(message), { vector: before, newKeysRefused: outcome === 'recorded-without-new-keys' });
  }

  /**
   * Counts a dispute against its transaction's card, customer and merchant, at the dispute's own
   * time: a dispute names only its transaction, whose fields ingestion owns, so they are asked of
   * it (the bus's barrier makes the answer hold every transaction written before the dispute).
   * Disputes are rare beside payments: one request each, off the checkpoints' path. An owner that
   * does not answer fails the event, which the bus delivers again, so no dispute is skipped.
   */
  private async recordDispute(message: MessageEnvelope<object>, dispute: TransactionDispute, timestampMillis: number): Promise<void> {
    const transaction = await this.facts.transaction(message, dispute.transactionId);
    const event = disputeVelocityEvent(message.eventId, timestampMillis, dispute, transaction?.fields);
    if (event !== null) this.features.record(scopeOf(message), event);
  }

  /**
   * ADR-0016: throws the 429 of a checkpoint whose own event named a key (a customer, card,
   * device…) the account could not add, because it holds its share of the keys. Its data was
   * accepted and its other keys counted; its answer would be scored on counters that miss it.
   */
  refuseWhenOverShare(message: MessageEnvelope<object>): void {
    if (this.decided.get(decisionKey(message))?.newKeysRefused !== true) return;
    throw new RateLimitedError(
      OVER_SHARE_RETRY_AFTER_SECONDS,
      `the account holds its share of velocity keys (${this.accountMaxKeys()}: ACCOUNT_SHARE_PERCENT of VELOCITY_MAX_KEYS); this checkpoint names a customer, card, device, e-mail, phone, IP address or merchant new to the account, which it cannot add. The data was accepted, no recommendation was made; the account's known customers are still decided`,
    );
  }

  /**
   * The velocity features of a checkpoint, synchronously from memory: the windows before the
   * checkpoint's own event (`ingestTopic` is where it was published, `message` the request,
   * which carries the same payload and trace id; `facts` its payload's facts when the caller has
   * read them already). Null until the stored counters are loaded.
   */
  featuresFor(ingestTopic: string, message: MessageEnvelope<object>, facts?: PayloadFacts): Record<string, number | null> | null {
    if (!this.isReady()) return null;
    const key = decisionKey(message);
    const decided = this.decided.get(key);
    if (decided !== undefined) {
      this.decided.delete(key);
      return velocityFeatureRecord(decided.vector);
    }
    // Its event is not recorded yet (an /async update scored beside this consumer), so the
    // counters exclude it as they are.
    const event = velocityEventOfFacts(ingestTopic, facts ?? payloadFacts(toWireJson(message.payload)), message.eventId);
    if (event === null) return velocityFeatureRecord(new Float64Array(VELOCITY_FEATURE_DEFINITIONS.length).fill(Number.NaN));
    return velocityFeatureRecord(this.features.featureVectorAt(scopeOf(message), event.keys, event.timestampMillis));
  }

  /**
   * Writes everything changed so far (the consumer's `beforeCommit`). Flushes run one after
   * another, so a caller returns once the changes made before its call are written.
   */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writeChanges());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  /** For metrics and the start-up log. */
  stats(): ReturnType<VelocityFeatures['stats']> {
    return this.features.stats();
  }

  private async writeChanges(): Promise<void> {
    if (!this.isReady()) return;
    const changes = this.features.takeChanges();
    if (changes.length === 0) return;
    try {
      await this.writer.write(changes);
    } catch (error) {
      this.features.returnChanges(error instanceof RowsNotWrittenError ? (error.rows as VelocityTenantChanges[]) : changes);
      throw error;
    }
  }

  /**
   * An operator's replay of a tenant's set-aside changes: its keys are marked changed again, so
   * the next write carries them as they stand in memory now, with its occurrences and event ids.
   */
  private async replay(changes: VelocityTenantChanges): Promise<void> {
    this.features.returnChanges([changes]);
    await this.flush();
  }

  /** Counters holding nothing yet, bounded as configured (`VELOCITY_MAX_KEYS`, and each account's share of it). */
  private emptyFeatures(): VelocityFeatures {
    return new VelocityFeatures({ maxKeys: this.config.velocityMaxKeys, accountMaxKeys: this.accountMaxKeys() });
  }

  /** Keys one account may hold, both its data sets together (ADR-0016). */
  private accountMaxKeys(): number {
    return accountShareOf(this.config.velocityMaxKeys, this.config.accountSharePercent);
  }

  private async loadWithRetries(): Promise<VelocityLoadReport> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const report = await this.loadAll();
        this.logger.info({ velocity: report }, 'velocity counters loaded from the store');
        return report;
      } catch (error) {
        this.features = this.emptyFeatures();
        measured = this.features;
        const retryInMs = exponentialBackoffMs(attempt, LOAD_BACKOFF);
        this.logger.error({ err: error, attempt, retryInMs }, 'could not load the velocity counters from the store; retrying');
        await new Promise((resolve) => setTimeout(resolve, retryInMs));
      }
    }
  }

  private async loadAll(): Promise<VelocityLoadReport> {
    const started = performance.now();
    let keys = 0;
    let unreadableKeys = 0;
    for (let page = await this.store.keysAfter(undefined, LOAD_PAGE_SIZE); ; ) {
      for (const { scope, dimension, key, snapshot } of page) {
        try {
          this.features.restoreKey(scope, dimension as VelocityDimension, key, snapshot);
          keys += 1;
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          unreadableKeys += 1;
          // Not the key itself: an e-mail or phone key is personal data (ADR-0016).
          this.logger.warn({ scope, dimension, err: error }, 'skipped a stored velocity key that cannot be read back; its counts start again');
        }
      }
      if (page.length < LOAD_PAGE_SIZE) break;
      const last = page[page.length - 1];
      page = await this.store.keysAfter({ scope: last.scope, after: [last.dimension, last.key] }, LOAD_PAGE_SIZE);
    }
    let occurrences = 0;
    for (let page = await this.store.occurrencesAfter(undefined, LOAD_PAGE_SIZE); ; ) {
      for (const { scope, ...record } of page) this.features.restoreOccurrence(scope, record);
      occurrences += page.length;
      if (page.length < LOAD_PAGE_SIZE) break;
      const last = page[page.length - 1];
      page = await this.store.occurrencesAfter({ scope: last.scope, after: [last.occurrence] }, LOAD_PAGE_SIZE);
    }
    let recordedEventIds = 0;
    for (const { scope, eventIds } of await this.store.recordedEventIds()) {
      this.features.restoreRecordedEventIds(scope, eventIds);
      recordedEventIds += eventIds.length;
    }
    this.loadedReport = { keys, occurrences, recordedEventIds, unreadableKeys, elapsedMs: Math.round(performance.now() - started) };
    return this.loadedReport;
  }
}

const scopeOf = ({ accountId, environment }: MessageEnvelope<unknown>): VelocityScope => ({ accountId, environment });

/**
 * A checkpoint's request and its ingest event share the account, the data set and the trace id
 * the gateway gave the HTTP request (server-generated, one per request); their event ids differ.
 */
const decisionKey = ({ accountId, environment, traceId }: MessageEnvelope<unknown>): string => JSON.stringify([accountId, environment, traceId]);
