import { EventTopics } from '@ringfence/contracts';
import { type Admin, Kafka, KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, type Producer } from 'kafkajs';
import { BusMessageRefusedError, BusUnavailableError } from '../bus-errors';
import { eventEnvelope } from '../test-support/message-envelope.factory';
import { KafkaMessageBus } from './kafka-message-bus';
import { kafkaMessageRefusal } from './kafka-message-refusal';

/** A produce answer as kafkajs builds it from the broker's error code (`createErrorFromCode`). */
const protocolError = (type: string, code: number, retriable: boolean) =>
  new KafkaJSProtocolError(Object.assign(new Error(`broker answered ${type}`), { type, code, retriable }));
const messageTooLarge = () => protocolError('MESSAGE_TOO_LARGE', 10, false);
const brokerDown = () =>
  new KafkaJSNumberOfRetriesExceeded(new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092'), { retryCount: 2, retryTime: 400 });

describe(kafkaMessageRefusal.name, () => {
  it.each([
    ['MESSAGE_TOO_LARGE', 10],
    ['RECORD_LIST_TOO_LARGE', 18],
    ['INVALID_RECORD', 87],
    ['INVALID_TIMESTAMP', 32],
  ])('names %s, as kafkajs hands it over or wrapped as non-retriable', (type, code) => {
    const refusal = protocolError(type, code, false);
    expect(kafkaMessageRefusal(refusal)).toBe(type);
    // kafkajs's retrier wraps an answer it does not retry, keeping it as the cause.
    expect(kafkaMessageRefusal(Object.assign(new KafkaJSNonRetriableError(refusal), { cause: refusal }))).toBe(type);
  });

  it('takes an unreachable broker, a retriable answer, and a refusal of the client rather than the message for outages', () => {
    expect(kafkaMessageRefusal(brokerDown())).toBeUndefined();
    expect(kafkaMessageRefusal(new KafkaJSNonRetriableError('The producer is disconnected'))).toBeUndefined();
    expect(kafkaMessageRefusal(protocolError('NOT_LEADER_FOR_PARTITION', 6, true))).toBeUndefined();
    expect(kafkaMessageRefusal(protocolError('TOPIC_AUTHORIZATION_FAILED', 29, false))).toBeUndefined();
  });
});

describe(`${KafkaMessageBus.name}: a message Kafka refuses`, () => {
  afterEach(() => jest.restoreAllMocks());

  /** A bus whose kafkajs producer answers each send with `answer`. */
  async function busWhoseProducer(answer: () => Promise<unknown>) {
    const producer = { connect: async () => undefined, disconnect: async () => undefined, send: jest.fn(answer) };
    const admin = { connect: async () => undefined, disconnect: async () => undefined };
    jest.spyOn(Kafka.prototype, 'producer').mockReturnValue(producer as unknown as Producer);
    jest.spyOn(Kafka.prototype, 'admin').mockReturnValue(admin as unknown as Admin);
    const bus = new KafkaMessageBus({ brokers: ['127.0.0.1:9092'], clientId: 'test', consumeReplies: false });
    await bus.start();
    return { bus, producer };
  }

  it('is BusMessageRefusedError naming the topic and the reason, so a writer can set it aside', async () => {
    const { bus } = await busWhoseProducer(() => Promise.reject(messageTooLarge()));

    const failure: unknown = await bus.publish(EventTopics.customerUpdated, eventEnvelope(EventTopics.customerUpdated)).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(BusMessageRefusedError);
    expect(failure).toMatchObject({ topic: EventTopics.customerUpdated, reason: 'MESSAGE_TOO_LARGE' });
    expect(failure).not.toBeInstanceOf(BusUnavailableError);
    await bus.stop();
  });

  it('is BusUnavailableError while the broker cannot be reached', async () => {
    const { bus } = await busWhoseProducer(() => Promise.reject(brokerDown()));

    const failure: unknown = await bus.publish(EventTopics.customerUpdated, eventEnvelope(EventTopics.customerUpdated)).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(BusUnavailableError);
    await bus.stop();
  });
});
