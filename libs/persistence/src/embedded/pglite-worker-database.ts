import { Worker } from 'node:worker_threads';
import type { BackendMessage } from 'pg-protocol/dist/messages';
import { Parser } from 'pg-protocol/dist/parser';
import type { ProtocolExecutor } from './pglite-statement-batcher';

/**
 * The worker's program: open PGlite on the data directory and run raw wire-protocol bytes.
 * Only buffers cross threads (the answers are transferred, not copied). Plain JavaScript run
 * with `eval`, so it needs no build step of its own and loads PGlite natively (also under
 * jest, whose module sandbox PGlite's WebAssembly loading does not survive).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pglitePath);
const describe = (error) => String((error && error.message) || error);
PGlite.create(workerData.dataDir).then(
  (db) => {
    parentPort.postMessage({ type: 'ready' });
    parentPort.on('message', async (message) => {
      if (message.type === 'close') {
        await db.close().catch(() => undefined);
        parentPort.postMessage({ type: 'closed' });
        return;
      }
      try {
        const answer = (await db.execProtocolRaw(message.bytes)).slice();
        parentPort.postMessage({ type: 'answer', id: message.id, bytes: answer }, [answer.buffer]);
      } catch (error) {
        parentPort.postMessage({ type: 'failed', id: message.id, message: describe(error) });
      }
    });
  },
  (error) => parentPort.postMessage({ type: 'open-failed', message: describe(error) }),
);
`;

type WorkerMessage =
  | { type: 'ready' | 'closed' }
  | { type: 'open-failed'; message: string }
  | { type: 'answer'; id: number; bytes: Uint8Array }
  | { type: 'failed'; id: number; message: string };

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
export class PGliteWorkerDatabase implements ProtocolExecutor {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closing: Promise<void> | undefined;
  private failure: Error | undefined;

  constructor(dataDir: string) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { dataDir, pglitePath: require.resolve('@electric-sql/pglite') },
    });
    this.waitReady = new Promise((resolve, reject) => {
      this.worker.on('message', (message: WorkerMessage) => {
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

  /** Runs frontend messages; answers them parsed, as PGlite's own method does. */
  async execProtocolStream(bytes: Uint8Array): Promise<BackendMessage[]> {
    const answer = await this.send(bytes);
    const messages: BackendMessage[] = [];
    new Parser().parse(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength), (message) => messages.push(message));
    return messages;
  }

  /** Closes the database (PGlite writes its files) and ends the worker. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.failure) return resolve();
      this.worker.once('exit', () => resolve());
      this.worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'closed') void this.worker.terminate();
      });
      this.worker.postMessage({ type: 'close' });
    });
    return this.closing;
  }

  private send(bytes: Uint8Array): Promise<Uint8Array> {
    if (this.failure) return Promise.reject(this.failure);
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'query', id, bytes });
    });
  }

  private settle(message: WorkerMessage): void {
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
