import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { BackendMessage } from 'pg-protocol/dist/messages';
import { Parser } from 'pg-protocol/dist/parser';
import { BACKGROUND_STATEMENT } from '../sql';
import type { ProtocolExecutor } from './pglite-statement-batcher';
import { startPGliteWorker } from './pglite-worker.loader';
import type { PGliteWorkerData, WorkerReply, WorkerRequest } from './pglite-worker.messages';

/**
 * How long a background batch may wait while foreground ones run: past it, it runs in its turn.
 * Above the write-behind flushes' 200 ms period, so a flush is only held back under a load
 * whose foreground statements alone keep the database busy.
 */
const BACKGROUND_MAX_WAIT_MS = 250;

/** What the worker program (`pglite.worker.ts`) reads from `workerData`. */
function workerOptions(dataDir: string, ownerWaitMs: number, backgroundMaxWaitMs: number, initialiseOnly: boolean): PGliteWorkerData {
  return { dataDir, ownerWaitMs, backgroundMaxWaitMs, initialiseOnly, backgroundMark: BACKGROUND_STATEMENT, pglitePath: require.resolve('@electric-sql/pglite') };
}

/**
 * Creates the database in a new data directory (PostgreSQL's initdb) in a worker of its own,
 * ended before the database opens. initdb leaves its WebAssembly memory in the thread that ran
 * it, which is given back only when the thread ends: the standalone server's first start on a
 * new directory stood at 941 MiB RSS, and at 550–574 MiB this way. (Under load the process grows
 * to the same size either way, about 0.9 GiB after one round of `npm run bench:mixed`, so this
 * spares the idle process and the start, not the peak.) A directory with a database is left as
 * it is.
 */
export async function initialiseDataDirectory(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const worker = startPGliteWorker(workerOptions(dataDir, 0, 0, true));
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (message: WorkerReply) => {
        if (message.type === 'initialised') resolve();
        else if (message.type === 'open-failed') reject(new Error(message.message));
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`the worker creating the embedded database exited with code ${code}`)));
    });
  } finally {
    await worker.terminate();
  }
}

interface Pending {
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
}

/**
 * PGlite in a worker thread. PGlite runs PostgreSQL as WebAssembly, synchronously, on the
 * thread that calls it; on the main thread each statement stalled HTTP, TLS and validation
 * (event-loop delays of seconds under load). In a worker, database and HTTP work overlap on
 * the machine's cores and the event loop stays responsive (health probes included).
 */
export class PGliteWorkerDatabase {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private nextSession = 0;
  private closing: Promise<void> | undefined;
  private failure: Error | undefined;

  /**
   * @param ownerWaitMs how long a session's statement may wait for another session's open
   *   transaction before it fails (a transaction that waits for a statement outside it would
   *   otherwise hang both).
   * @param backgroundMaxWaitMs how long a background statement (`BACKGROUND_STATEMENT`) may wait
   *   while others run before it runs in its turn.
   */
  constructor(dataDir: string, ownerWaitMs: number, backgroundMaxWaitMs = BACKGROUND_MAX_WAIT_MS) {
    this.worker = startPGliteWorker(workerOptions(dataDir, ownerWaitMs, backgroundMaxWaitMs, false));
    this.waitReady = new Promise((resolve, reject) => {
      this.worker.on('message', (message: WorkerReply) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'open-failed') reject(new Error(message.message));
        else this.settle(message);
      });
      this.worker.on('error', (error) => this.fail(error, reject));
      this.worker.on('exit', (code) => this.fail(new Error(`the embedded database worker exited with code ${code}`), reject));
    });
  }

  get closed(): boolean {
    return this.closing !== undefined || this.failure !== undefined;
  }

  /**
   * A client session: what one `pg` connection talks to. Sessions share PGlite's one database
   * session; the worker keeps each open transaction to its own session's statements.
   */
  openSession(): ProtocolExecutor {
    const session = (this.nextSession += 1);
    return {
      waitReady: this.waitReady,
      // Answers parsed, as PGlite's own method does.
      execProtocolStream: async (bytes: Uint8Array): Promise<BackendMessage[]> => {
        const answer = await this.send(session, bytes);
        const messages: BackendMessage[] = [];
        new Parser().parse(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength), (message) => messages.push(message));
        return messages;
      },
    };
  }

  /** Closes the database (PGlite writes its files) and ends the worker. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.failure) return resolve();
      this.worker.once('exit', () => resolve());
      this.worker.on('message', (message: WorkerReply) => {
        if (message.type === 'closed') void this.worker.terminate();
      });
      this.worker.postMessage({ type: 'close' } satisfies WorkerRequest);
    });
    return this.closing;
  }

  private send(session: number, bytes: Uint8Array): Promise<Uint8Array> {
    if (this.failure) return Promise.reject(this.failure);
    const id = (this.nextId += 1);
    // Structured clone copies a view's whole backing buffer, and the driver's messages are views
    // into larger ones (260 µs per message for a 1 MiB buffer): an exact copy, transferred,
    // costs only its own bytes.
    const exact = new Uint8Array(bytes);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'query', id, session, bytes: exact, at: Date.now() } satisfies WorkerRequest, [exact.buffer]);
    });
  }

  private settle(message: WorkerReply): void {
    if (message.type !== 'answer' && message.type !== 'failed') return;
    const pending = this.pending.get(message.id);
    this.pending.delete(message.id);
    if (message.type === 'answer') pending?.resolve(message.bytes);
    else pending?.reject(new Error(message.message));
  }

  private fail(error: Error, rejectOpen: (error: Error) => void): void {
    this.failure ??= error;
    rejectOpen(error);
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
