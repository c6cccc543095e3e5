import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { ALL_TOPICS } from '../../../libs/contracts/src/messages/topics';

/**
 * Starts librdkafka's mock Kafka cluster (Debian package `librdkafka-dev`) for tests of the
 * Kafka adapter and of the distributed mode. See README.md in this folder for its limits.
 */

const SOURCE = join(__dirname, 'kafka-mock.c');
const COMPILE_FLAGS = ['-O2', '-std=c11', '-D_POSIX_C_SOURCE=200809L', '-Wall', '-Wextra'];
const LINK_FLAGS = ['-lrdkafka'];
// Generous: on a loaded 2-core machine (a benchmark beside the tests) the mock has taken over 10 s,
// and in CI's integration tier (one process, after the Kafka bus suites) it twice printed nothing
// within 30 s, while the same suites in the same order always started it in time here. The cause
// is not known; the error says what the mock wrote to stderr and whether it still ran.
const STARTUP_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 5_000;

export interface KafkaMockOptions {
  /** Topics to create up front: the mock has no CreateTopics API. */
  topics: readonly string[];
  /** Partitions of each topic; 1 by default. */
  partitions?: number;
  /** Brokers in the cluster; 1 by default. */
  brokers?: number;
  /** Forwards the mock's own log (librdkafka `debug=mock`) to this process's stderr. */
  debug?: boolean;
}

export interface KafkaMock {
  /** Bootstrap servers, `host:port` each. */
  brokers: string[];
  /** Stops the cluster and waits for the process to exit; safe to call twice. */
  stop(): Promise<void>;
  createTopic(name: string, partitions?: number): Promise<void>;
  /** Closes the broker's connections and refuses new ones (-1: every broker). */
  setBrokerDown(brokerId?: number): Promise<void>;
  setBrokerUp(brokerId?: number): Promise<void>;
  /** Adds round-trip latency to a broker's responses (-1: every broker). */
  setBrokerRtt(brokerId: number, rttMs: number): Promise<void>;
  /** The next `count` produce requests (at most 64) are answered with Kafka error `errorCode` (10: MESSAGE_TOO_LARGE). */
  failProduceRequests(errorCode: number, count: number): Promise<void>;
}

function cacheDirectory(): string {
  return process.env.KAFKA_MOCK_CACHE_DIR ?? resolve(__dirname, '../../../node_modules/.cache/ringfence-kafka-mock');
}

/**
 * Compiles kafka-mock.c once per source and flags: the binary's name carries their hash, so
 * an edited source builds anew. It is written under a temporary name and renamed, so parallel
 * test workers never run a half-written file.
 */
export async function buildKafkaMock(): Promise<string> {
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).update(COMPILE_FLAGS.join(' ')).update(LINK_FLAGS.join(' ')).digest('hex').slice(0, 16);
  const directory = cacheDirectory();
  const binary = join(directory, `kafka-mock-${hash}`);
  if (existsSync(binary)) return binary;
  mkdirSync(directory, { recursive: true });
  const temporary = `${binary}.${process.pid}.tmp`;
  try {
    await promisify(execFile)('gcc', [...COMPILE_FLAGS, '-o', temporary, SOURCE, ...LINK_FLAGS]);
    renameSync(temporary, binary);
  } catch (error) {
    rmSync(temporary, { force: true });
    const detail = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`could not compile the Kafka mock (needs gcc and librdkafka-dev: apt-get install -y gcc librdkafka-dev):\n${detail}`);
  }
  return binary;
}

function mockArguments(options: KafkaMockOptions): string[] {
  return ['--brokers', String(options.brokers ?? 1), '--partitions', String(options.partitions ?? 1), ...(options.debug ? ['--debug'] : []), ...options.topics];
}

/** The running cluster: the first stdout line is the bootstrap list, then one line per command. */
class KafkaMockProcess implements KafkaMock {
  brokers: string[] = [];
  private readonly replies: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private readonly stderrTail: string[] = [];
  private readonly exited: Promise<void>;
  private stopping: Promise<void> | undefined;

  constructor(private readonly child: ChildProcessWithoutNullStreams, debug: boolean) {
    this.exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (debug) process.stderr.write(chunk);
      this.stderrTail.push(chunk);
      if (this.stderrTail.length > 20) this.stderrTail.shift();
    });
    child.once('exit', () => {
      for (const waiting of this.replies.splice(0)) waiting.reject(new Error('the Kafka mock exited'));
    });
  }

  async waitForBootstrap(): Promise<void> {
    const lines = createInterface({ input: this.child.stdout });
    const bootstrap = await new Promise<string>((resolveLine, reject) => {
      const timer = setTimeout(() => {
        const state = this.child.exitCode === null && this.child.signalCode === null ? 'still running' : 'exited';
        reject(new Error(`the Kafka mock printed no bootstrap servers within ${STARTUP_TIMEOUT_MS} ms (${state}; its stderr: ${this.stderrTail.join('') || 'nothing'})`));
      }, STARTUP_TIMEOUT_MS);
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolveLine(line);
      });
      this.child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the Kafka mock exited with ${code}: ${this.stderrTail.join('')}`));
      });
    });
    this.brokers = bootstrap.split(',').filter((broker) => broker.length > 0);
    lines.on('line', (line) => {
      const waiting = this.replies.shift();
      if (line === 'ok') waiting?.resolve();
      else waiting?.reject(new Error(`the Kafka mock refused the command: ${line}`));
    });
  }

  createTopic(name: string, partitions?: number): Promise<void> {
    return this.command(partitions === undefined ? `topic ${name}` : `topic ${name} ${partitions}`);
  }

  setBrokerDown(brokerId = -1): Promise<void> {
    return this.command(`down ${brokerId}`);
  }

  setBrokerUp(brokerId = -1): Promise<void> {
    return this.command(`up ${brokerId}`);
  }

  setBrokerRtt(brokerId: number, rttMs: number): Promise<void> {
    return this.command(`rtt ${brokerId} ${rttMs}`);
  }

  failProduceRequests(errorCode: number, count: number): Promise<void> {
    return this.command(`produce-errors ${errorCode} ${count}`);
  }

  stop(): Promise<void> {
    this.stopping ??= this.terminate();
    return this.stopping;
  }

  private command(line: string): Promise<void> {
    if (this.child.exitCode !== null || this.stopping) return Promise.reject(new Error('the Kafka mock is not running'));
    return new Promise((resolveCommand, reject) => {
      this.replies.push({ resolve: resolveCommand, reject });
      this.child.stdin.write(`${line}\n`);
    });
  }

  private async terminate(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    // End of stdin is the mock's normal way out; the signals are for a mock that hangs.
    this.child.stdin.end();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

export async function startKafkaMock(options: KafkaMockOptions): Promise<KafkaMock> {
  const binary = await buildKafkaMock();
  const child = spawn(binary, mockArguments(options), { stdio: ['pipe', 'pipe', 'pipe'] });
  const mock = new KafkaMockProcess(child, options.debug ?? false);
  try {
    await mock.waitForBootstrap();
  } catch (error) {
    await mock.stop();
    throw error;
  }
  return mock;
}

/**
 * By hand: `test/tools/kafka-mock/kafka-mock.sh [--brokers N] [--partitions P] [--until-signal]
 * [--debug] [--all-topics] [TOPIC...]` (options in any order: `launcherArguments`). The mock runs in the foreground with this terminal's
 * stdin, so its commands (`down 1`, `up 1`, `topic NAME 3`) can be typed.
 */
/** Options taking a value, and options without one: the launcher reads options only before the first topic. */
const VALUE_OPTIONS = new Set(['--brokers', '--partitions']);
const FLAG_OPTIONS = new Set(['--until-signal', '--debug', '--help']);

/**
 * The launcher's arguments: every option first, then the topics (`--all-topics` expanded), in
 * whatever order they were given. The launcher stops reading options at the first topic, so
 * `--all-topics --partitions 3` once gave one-partition topics named `--partitions` and `3`.
 */
export function launcherArguments(argv: readonly string[]): string[] {
  const options: string[] = [];
  const topics: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '--all-topics') topics.push(...ALL_TOPICS);
    else if (VALUE_OPTIONS.has(arg) && index + 1 < argv.length) options.push(arg, argv[++index] as string);
    else if (FLAG_OPTIONS.has(arg)) options.push(arg);
    else if (arg.startsWith('--')) throw new Error(`kafka-mock: unknown option ${arg} (--brokers N, --partitions P, --all-topics, --until-signal, --debug)`);
    else topics.push(arg);
  }
  return [...options, ...topics];
}

async function main(argv: string[]): Promise<void> {
  const args = launcherArguments(argv);
  const binary = await buildKafkaMock();
  const child = spawn(binary, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.once('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
