import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { BusMessageRefusedError, type MessageBus } from '@ringfence/bus';
import type { EventTopic, EventTopicMap, MessageEnvelope } from '@ringfence/contracts';
import { type Logger, type RowWriter, RowsNotWrittenError, SetAsideRows, describeError } from '@ringfence/platform';
import { MESSAGE_BUS, ROOT_LOGGER } from '../tokens';

/** The writer's name in set-aside rows, metrics and logs. */
export const PUBLISH_BEHIND_WRITER = 'bus-publishes';
/** How often messages kept after a failed publish are tried again. */
export const PUBLISH_RETRY_INTERVAL_MS = 1_000;
/**
 * Messages kept for another try at most; past it the oldest is set aside. Kept messages pile up
 * only while the bus takes the ingest events but not these (a topic of its own refused), since a
 * checkpoint whose ingest event is refused is a 503 and publishes no decision.
 */
export const MAX_KEPT_PUBLISHES = 10_000;

/** A message published behind the request, as kept, set aside and replayed. */
export interface PublishRow {
  topic: EventTopic;
  /** Names the message across tries (and an event's deliveries): unique in the writer. */
  key: string;
  envelope: MessageEnvelope<unknown>;
}

/** Done: published, or set aside after its tries. */
type Attempt = 'done' | 'refused' | 'unavailable';

/**
 * The bus's writer behind the request (ADR-0016, "One bad row never blocks the others"):
 * messages published after the data they follow was accepted, which a failure must neither
 * drop nor retry forever. A message the broker refuses for what it is (`BusMessageRefusedError`:
 * Kafka's MESSAGE_TOO_LARGE, INVALID_RECORD…) gets `DEFAULT_ROW_ATTEMPTS` tries and is then set
 * aside (writer `bus-publishes`), counted and logged, for an operator to read and replay; a bus
 * that cannot be reached is an outage, which blames no message.
 *
 * Each message is its own write: a publish is not atomic over several messages, so the
 * `RowWriter`'s halving of a batch would publish the good ones twice.
 */
@Injectable()
export class PublishBehind implements BeforeApplicationShutdown {
  private readonly writer: RowWriter<PublishRow>;
  /** Messages not published yet, oldest first, by key. */
  private readonly kept = new Map<string, PublishRow>();
  private timer: NodeJS.Timeout | undefined;
  private retrying: Promise<void> | undefined;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    setAside: SetAsideRows,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.writer = setAside.writer<PublishRow>(
      {
        name: PUBLISH_BEHIND_WRITER,
        writeAll: async (rows) => {
          for (const { topic, envelope } of rows) await bus.publish(topic, envelope as MessageEnvelope<EventTopicMap[EventTopic]>);
        },
        identify: ({ key, envelope }) => ({ accountId: envelope.accountId, environment: envelope.environment, key }),
        isUnavailable: (error) => !(error instanceof BusMessageRefusedError),
      },
      (row) => this.replay(row as PublishRow),
    );
  }

  /** Messages kept for another try (for tests and the log). */
  get keptCount(): number {
    return this.kept.size;
  }

  /**
   * Publishes a message that follows data already accepted (a checkpoint's decision, once
   * answered), tried at once. One not published is kept and tried again every
   * `PUBLISH_RETRY_INTERVAL_MS` until it is published, or set aside after its tries when the
   * broker keeps refusing it. Never rejects: the request's answer stands either way.
   */
  async publishOrKeep<T extends EventTopic>(topic: T, envelope: MessageEnvelope<EventTopicMap[T]>): Promise<void> {
    const row: PublishRow = { topic, key: `${topic}:${envelope.eventId}`, envelope };
    const attempt = await this.attempt(row);
    if (attempt === 'refused' || attempt === 'unavailable') this.keep(row);
  }

  /**
   * Publishes a message from an event handler that the bus delivers again when it throws, one
   * try per delivery: resolves once the message is published, or set aside after its tries (the
   * handler is done with it); rejects otherwise, so the event is delivered again and its offset
   * not committed. `sourceKey` names the message across deliveries (the handled event's id).
   */
  async publishOrThrow<T extends EventTopic>(topic: T, envelope: MessageEnvelope<EventTopicMap[T]>, sourceKey: string): Promise<void> {
    await this.writer.write([{ topic, key: `${topic}:${sourceKey}`, envelope }]);
  }

  /** One pass over the kept messages, oldest first; what the timer runs. Stops at an outage. */
  retryKept(): Promise<void> {
    this.retrying ??= this.retryPass().finally(() => {
      this.retrying = undefined;
      if (this.kept.size === 0) this.stopTimer();
    });
    return this.retrying;
  }

  /**
   * Before the bus stops: one last pass, then what is still kept is set aside rather than lost
   * (an operator replays it once the bus takes it).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopTimer();
    if (this.kept.size === 0) return;
    await this.retryKept();
    const rows = [...this.kept.values()];
    if (rows.length === 0) return;
    try {
      await this.writer.setAsideNow(rows, new Error('the process stopped before the message was published'));
      this.kept.clear();
    } catch (error) {
      this.logger.error({ writer: PUBLISH_BEHIND_WRITER, messages: rows.length, err: error }, 'messages not published could not be set aside at shutdown; they are lost');
    }
  }

  private async retryPass(): Promise<void> {
    for (const row of [...this.kept.values()]) {
      if (!this.kept.has(row.key)) continue;
      const attempt = await this.attempt(row);
      if (attempt === 'done') this.kept.delete(row.key);
      // The next message would wait out the same outage: the next pass tries again.
      if (attempt === 'unavailable') return;
    }
  }

  private async attempt(row: PublishRow): Promise<Attempt> {
    try {
      await this.writer.write([row]);
      return 'done';
    } catch (error) {
      if (!(error instanceof RowsNotWrittenError)) throw error;
      return error.cause instanceof BusMessageRefusedError ? 'refused' : 'unavailable';
    }
  }

  private keep(row: PublishRow): void {
    if (!this.kept.has(row.key)) {
      this.logger.warn({ writer: PUBLISH_BEHIND_WRITER, topic: row.topic, accountId: row.envelope.accountId, traceId: row.envelope.traceId }, 'a message was not published; it is kept and tried again');
    }
    this.kept.set(row.key, row);
    if (this.kept.size > MAX_KEPT_PUBLISHES) this.letGoOfOldest();
    this.timer ??= setInterval(() => {
      this.retryKept().catch((error: unknown) => this.logger.error({ writer: PUBLISH_BEHIND_WRITER, err: error }, 'retrying the kept messages failed'));
    }, PUBLISH_RETRY_INTERVAL_MS).unref();
  }

  private letGoOfOldest(): void {
    const [oldest] = this.kept.values();
    this.kept.delete(oldest.key);
    this.writer.setAsideNow([oldest], new Error(`more than ${MAX_KEPT_PUBLISHES} messages were waiting to be published`)).catch((error: unknown) => {
      this.logger.error({ writer: PUBLISH_BEHIND_WRITER, topic: oldest.topic, accountId: oldest.envelope.accountId, err: describeError(error) }, 'a message not published could not be set aside; it is lost');
    });
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** An operator's replay: published now, once; still refused, its entry stays. */
  private async replay(row: PublishRow): Promise<void> {
    await this.bus.publish(row.topic, row.envelope as MessageEnvelope<EventTopicMap[EventTopic]>);
    this.kept.delete(row.key);
  }
}
