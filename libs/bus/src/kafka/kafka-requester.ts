import { randomUUID } from 'node:crypto';
import { envelopeText, type MessageEnvelope, messageKey, RPC_REPLY_TOPIC } from '@ringfence/contracts';
import { INTERNAL_ERROR_MESSAGE } from '@ringfence/platform';
import type { EachMessagePayload } from 'kafkajs';
import { BusTimeoutError, BusUnavailableError } from '../bus-errors';
import type { BusLogger } from '../bus-logger';
import { remoteErrorFrom } from '../rpc-failure';
import type { ConsumerSpec } from './kafka-consumer-runner';
import type { PartitionOffset } from './kafka-offset-reader';
import type { KafkaProducer } from './kafka-producer';
import { encodeReadPositions, headerText, isRpcReply, KAFKA_HEADERS, parsedValue } from './kafka-records';

interface PendingRequest {
  topic: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface KafkaRequesterSettings {
  /** Names this process in reply routing. */
  instanceId: string;
  groupIdPrefix: string;
  /** False in services that never send requests: they do not read the reply topic. */
  consumeReplies: boolean;
  producer: KafkaProducer;
  /** The end offsets of the answer being worked out in this async context, if any (`read-positions`). */
  readPositions: () => readonly PartitionOffset[] | undefined;
  /**
   * When requests sent on behalf of the answer being worked out in this async context give up, if
   * any (before that answer's deadline, `replyMarginMs`): the failure naming what did not answer
   * still reaches its requester.
   */
  giveUpAt?: () => number | undefined;
  logger: BusLogger;
}

/**
 * The requesting side of request-reply. A request goes to its topic with a correlation id and
 * this instance's id; every requester instance reads the reply topic with a group of its own,
 * from the end and committing nothing, and keeps only the replies addressed to it.
 */
export class KafkaRequester {
  private readonly pending = new Map<string, PendingRequest>();

  constructor(private readonly settings: KafkaRequesterSettings) {}

  /** Requests waiting for their reply. */
  get inFlight(): number {
    return this.pending.size;
  }

  request(topic: string, message: MessageEnvelope<unknown>, requestedTimeoutMs: number): Promise<unknown> {
    if (!this.settings.consumeReplies) {
      return Promise.reject(new BusUnavailableError('this bus was created with consumeReplies: false and cannot send requests'));
    }
    // A time already past is not this request's: work begun in an answer's context and left
    // running (a timer, a shared batch) must not fail every later request at once.
    const giveUpAt = this.settings.giveUpAt?.();
    const timeoutMs = giveUpAt === undefined || giveUpAt <= Date.now() ? requestedTimeoutMs : Math.min(requestedTimeoutMs, giveUpAt - Date.now());
    const correlationId = randomUUID();
    const headers = this.requestHeaders(message, correlationId, timeoutMs);
    return new Promise<unknown>((resolve, reject) => {
      const entry: PendingRequest = {
        topic,
        resolve,
        reject,
        timer: setTimeout(() => {
          if (this.pending.delete(correlationId)) reject(new BusTimeoutError(topic, timeoutMs));
        }, timeoutMs),
      };
      this.pending.set(correlationId, entry);
      this.settings.producer.send(topic, messageKey(message), envelopeText(message), headers).catch((error: unknown) => {
        if (!this.pending.delete(correlationId)) return;
        clearTimeout(entry.timer);
        reject(error as Error);
      });
    });
  }

  /** The reply reader, when this instance sends requests. */
  spec(): ConsumerSpec | undefined {
    if (!this.settings.consumeReplies) return undefined;
    return {
      groupId: `${this.settings.groupIdPrefix}rpc-reply.${this.settings.instanceId}`,
      topics: [RPC_REPLY_TOPIC],
      fromBeginning: false,
      // Replies are worthless after a restart, so nothing is committed for this throwaway group.
      autoCommit: false,
      eachMessage: (payload) => this.receiveReply(payload),
    };
  }

  /** The bus is stopping: every request still waiting fails at once. */
  rejectPending(): void {
    for (const [correlationId, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new BusUnavailableError(`the bus stopped before ${entry.topic} answered (${correlationId})`));
    }
    this.pending.clear();
  }

  private requestHeaders(message: MessageEnvelope<unknown>, correlationId: string, timeoutMs: number): Record<string, string> {
    const readPositions = this.settings.readPositions();
    return {
      [KAFKA_HEADERS.eventId]: message.eventId,
      [KAFKA_HEADERS.correlationId]: correlationId,
      [KAFKA_HEADERS.replyTo]: RPC_REPLY_TOPIC,
      [KAFKA_HEADERS.replyInstance]: this.settings.instanceId,
      [KAFKA_HEADERS.deadline]: String(Date.now() + timeoutMs),
      ...(readPositions === undefined || readPositions.length === 0 ? {} : { [KAFKA_HEADERS.readPositions]: encodeReadPositions(readPositions) }),
    };
  }

  private async receiveReply({ message }: EachMessagePayload): Promise<void> {
    if (headerText(message.headers, KAFKA_HEADERS.replyInstance) !== this.settings.instanceId) return;
    const correlationId = headerText(message.headers, KAFKA_HEADERS.correlationId);
    const entry = correlationId === undefined ? undefined : this.pending.get(correlationId);
    if (correlationId === undefined || entry === undefined) return;
    this.pending.delete(correlationId);
    clearTimeout(entry.timer);
    const reply = parsedValue(message.value);
    if (!isRpcReply(reply)) {
      this.settings.logger.error({ topic: entry.topic, correlationId }, 'received a reply that is not an RpcReply');
      entry.reject(remoteErrorFrom(entry.topic, { code: 'INTERNAL', status: 500, message: INTERNAL_ERROR_MESSAGE }));
    } else if (reply.ok) {
      entry.resolve(reply.value);
    } else {
      entry.reject(remoteErrorFrom(entry.topic, reply.error));
    }
  }
}
