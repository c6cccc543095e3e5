// Request-reply round trips through the Kafka mock cluster (test/tools/kafka-mock), as the bus
// makes them (request produced, a responder group consumes it and produces the reply, the
// requester's group consumes that), with kafkajs or with @confluentinc/kafka-javascript's
// KafkaJS-compatible API: the measurement behind libs/bus/README.md's "Why kafkajs".
//
//   (sleep 600 | test/tools/kafka-mock/kafka-mock.sh --partitions 3 --all-topics > /tmp/mock.out &)
//   node test/bench/kafka-client-rtt.bench.mjs kafkajs "$(head -1 /tmp/mock.out)"
//   # the candidate is not a dependency: install it in a scratch directory first (see the README)
//   KAFKA_CLIENT_DIR=/tmp/ckjs node test/bench/kafka-client-rtt.bench.mjs confluent "$(head -1 /tmp/mock.out)"
//
// Env: BENCH_REQUESTS (200, one at a time). Output: one JSON line, milliseconds.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [client, bootstrap] = process.argv.slice(2);
if (!['kafkajs', 'confluent'].includes(client) || !bootstrap) {
  process.stderr.write('usage: kafka-client-rtt.bench.mjs kafkajs|confluent HOST:PORT\n');
  process.exit(2);
}
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const REQUEST_TOPIC = 'ringfence.rpc.scoring.customer-checkpoint.v1';
const REPLY_TOPIC = 'ringfence.rpc.reply.v1';
/** The integration tests' fetch wait on the mock, which answers a fetch only when it has passed. */
const MAX_WAIT_MS = 5;
const brokers = bootstrap.split(',');
const suffix = Date.now();

function kafkajsClients() {
  const { Kafka, logLevel, Partitioners } = createRequire(import.meta.url)('kafkajs');
  const kafka = new Kafka({ brokers, logLevel: logLevel.ERROR });
  return {
    producer: kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner }),
    consumer: (groupId) => kafka.consumer({ groupId, maxWaitTimeInMs: MAX_WAIT_MS }),
    send: (producer, topic, id) => producer.send({ topic, acks: -1, messages: [{ key: id, value: id }] }),
  };
}

function confluentClients() {
  const directory = process.env.KAFKA_CLIENT_DIR ?? process.cwd();
  const { KafkaJS } = createRequire(join(directory, 'package.json'))('@confluentinc/kafka-javascript');
  const kafka = new KafkaJS.Kafka({ kafkaJS: { brokers, logLevel: KafkaJS.logLevel.ERROR } });
  return {
    producer: kafka.producer({ kafkaJS: { acks: -1 }, 'linger.ms': 0 }),
    consumer: (groupId) => kafka.consumer({ kafkaJS: { groupId, fromBeginning: false, maxWaitTimeInMs: MAX_WAIT_MS }, 'fetch.wait.max.ms': MAX_WAIT_MS }),
    send: (producer, topic, id) => producer.send({ topic, messages: [{ key: id, value: id }] }),
  };
}

const { producer, consumer, send } = client === 'kafkajs' ? kafkajsClients() : confluentClients();
const responder = consumer(`bench-responder-${suffix}`);
const requester = consumer(`bench-requester-${suffix}`);
await Promise.all([producer.connect(), responder.connect(), requester.connect()]);
await responder.subscribe({ topics: [REQUEST_TOPIC] });
await requester.subscribe({ topics: [REPLY_TOPIC] });
const waiting = new Map();
await responder.run({ eachMessage: ({ message }) => send(producer, REPLY_TOPIC, message.value.toString()) });
await requester.run({ eachMessage: async ({ message }) => waiting.get(message.value.toString())?.() });
// Both groups join and take their partitions (positioned at the end) before the first request.
await new Promise((resolve) => setTimeout(resolve, 4_000));

const times = [];
let unanswered = 0;
for (let index = 0; index < REQUESTS; index += 1) {
  const id = `request-${suffix}-${index}`;
  const started = performance.now();
  const answered = new Promise((resolve) => waiting.set(id, () => resolve(true)));
  await send(producer, REQUEST_TOPIC, id);
  if (!(await Promise.race([answered, new Promise((resolve) => setTimeout(() => resolve(false), 5_000))]))) unanswered += 1;
  times.push(performance.now() - started);
  waiting.delete(id);
}
times.sort((left, right) => left - right);
const at = (quantile) => +times[Math.min(times.length - 1, Math.floor(times.length * quantile))].toFixed(1);
console.log(JSON.stringify({ client, requests: REQUESTS, unanswered, p50: at(0.5), p99: at(0.99), max: at(1) }));
await Promise.all([responder.disconnect(), requester.disconnect()]);
await producer.disconnect();
