/**
 * An in-process request through the bus transporter, handler dispatched by Nest's RPC pipeline
 * or called directly (`connectMessageBus`'s `dispatch`), and for the floor a handler given to
 * `bus.handle` by hand: time and bytes allocated per request.
 * The numbers in libs/bus/README.md come from here. Run with
 *   npx ts-node -P tsconfig.json -r tsconfig-paths/register --transpile-only libs/bus/src/test-support/bus-dispatch.bench.ts [rounds]
 *
 * Each measurement is a child process (`node --expose-gc --trace-gc-nvp`) that starts a hybrid
 * app as the runtime does, warms up, then sends sequential requests and collects once. Bytes
 * allocated are the sum of the GC trace's `allocated=` fields; two children per round, of
 * 20 000 and 100 000 requests, and their difference divided by 80 000, so the app's start and
 * the warm-up cancel out. Time per request is the larger child's. Rounds alternate the order
 * of the three; the result is the median of the rounds, with their range.
 */
import { spawn } from 'node:child_process';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { InProcessMessageBus } from '../in-process/in-process-message-bus';
import { connectMessageBus } from '../nest/connect-message-bus';
import type { MessageBusContext } from '../nest/message-bus.context';
import { MessageBusController } from '../nest/message-bus.controller';
import { InMemoryEventLogStore } from './in-memory-event-log.store';
import { markerOf, requestEnvelope } from './message-envelope.factory';

/** `bus`: no transporter, a handler given to `bus.handle` by hand: the floor both dispatches stand on. */
type Dispatch = 'nest' | 'direct' | 'bus';
const DISPATCHES: readonly Dispatch[] = ['nest', 'direct', 'bus'];

const CHECKPOINT = RpcTopics.customerCheckpoint;
const WARM_UP = 20_000;
const SMALL = 20_000;
const LARGE = 100_000;

@Injectable()
class Answers {
  count = 0;
}

/** The shape of the services' responders: the envelope and the context, a promise of the reply. */
@MessageBusController()
class BenchResponder {
  constructor(private readonly answers: Answers) {}

  @MessagePattern(CHECKPOINT, { group: 'bench' })
  score(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<unknown> {
    this.answers.count += 1;
    return Promise.resolve({ marker: markerOf(message), aborted: context.getSignal().aborted });
  }
}

/** The bus started with the responder registered: through a hybrid app as the runtime builds it, or by hand. */
async function startResponder(dispatch: Dispatch): Promise<{ bus: InProcessMessageBus; close: () => Promise<void> }> {
  const bus = new InProcessMessageBus({ eventLog: new InMemoryEventLogStore() });
  if (dispatch === 'bus') {
    const answers = new Answers();
    bus.handle(CHECKPOINT, { group: 'bench' }, (message, context) => {
      answers.count += 1;
      return Promise.resolve({ marker: markerOf(message), aborted: context.signal.aborted } as never);
    });
    await bus.start();
    return { bus, close: () => bus.stop() };
  }
  @Module({ controllers: [BenchResponder], providers: [Answers] })
  class BenchModule {}
  const app = await NestFactory.create(BenchModule, new FastifyAdapter(), { logger: false });
  connectMessageBus(app, bus, { dispatch });
  await app.init();
  await app.startAllMicroservices();
  return { bus, close: () => app.close() };
}

async function child(dispatch: Dispatch, requests: number): Promise<void> {
  const { bus, close } = await startResponder(dispatch);
  const message = requestEnvelope(CHECKPOINT);
  const send = () => bus.request(CHECKPOINT, message, { timeoutMs: 1_000 });
  for (let n = 0; n < WARM_UP; n += 1) await send();
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run the child with --expose-gc');
  collect();
  const startedAt = process.hrtime.bigint();
  for (let n = 0; n < requests; n += 1) await send();
  const elapsedNs = Number(process.hrtime.bigint() - startedAt);
  // Collect now, so the trace accounts for every byte the requests allocated.
  collect();
  process.stdout.write(`RESULT ${JSON.stringify({ dispatch, requests, elapsedNs })}\n`);
  await close();
}

interface ChildResult {
  elapsedNs: number;
  allocatedBytes: number;
}

const GC_LINE = /^\[\d+:0x[0-9a-f]+\].* allocated=(\d+)/;

function runChild(dispatch: Dispatch, requests: number): Promise<ChildResult> {
  const args = ['--expose-gc', '--trace-gc-nvp', ...process.execArgv, __filename, 'child', dispatch, String(requests)];
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    process_.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    process_.on('error', reject);
    process_.on('exit', (code) => {
      const lines = output.split('\n');
      const result = lines.find((line) => line.startsWith('RESULT '));
      if (code !== 0 || result === undefined) return reject(new Error(`the ${dispatch} child exited with ${code}`));
      const allocatedBytes = lines.reduce((sum, line) => sum + Number(GC_LINE.exec(line)?.[1] ?? 0), 0);
      resolve({ elapsedNs: (JSON.parse(result.slice('RESULT '.length)) as { elapsedNs: number }).elapsedNs, allocatedBytes });
    });
  });
}

function summary(values: number[], unit: string, digits: number): string {
  const sorted = [...values].sort((left, right) => left - right);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `median ${median.toFixed(digits)} ${unit} (${sorted[0].toFixed(digits)}–${sorted[sorted.length - 1].toFixed(digits)})`;
}

async function parent(rounds: number): Promise<void> {
  const measured = Object.fromEntries(DISPATCHES.map((dispatch) => [dispatch, { micros: [] as number[], bytes: [] as number[] }])) as Record<Dispatch, { micros: number[]; bytes: number[] }>;
  for (let round = 0; round < rounds; round += 1) {
    for (const dispatch of round % 2 === 0 ? DISPATCHES : [...DISPATCHES].reverse()) {
      const small = await runChild(dispatch, SMALL);
      const large = await runChild(dispatch, LARGE);
      measured[dispatch].micros.push(large.elapsedNs / LARGE / 1_000);
      measured[dispatch].bytes.push((large.allocatedBytes - small.allocatedBytes) / (LARGE - SMALL));
    }
  }
  console.log(`in-process request through the bus transporter, sequential, ${rounds} rounds (${LARGE} requests each)`);
  for (const dispatch of DISPATCHES) {
    console.log(`  ${dispatch.padEnd(6)} ${summary(measured[dispatch].micros, 'µs', 2)} per request; ${summary(measured[dispatch].bytes, 'bytes', 0)} allocated per request`);
  }
}

const [mode, dispatch, requests] = process.argv.slice(2);
const run = mode === 'child' ? child(dispatch as Dispatch, Number(requests)) : parent(Number(mode ?? 5));
run.catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
