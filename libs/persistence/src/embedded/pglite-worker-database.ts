import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BackendMessage } from 'pg-protocol/dist/messages';
import { Parser } from 'pg-protocol/dist/parser';
import { BACKGROUND_STATEMENT } from '../sql';
import type { ProtocolExecutor } from './pglite-statement-batcher';

/**
 * The worker's program: open PGlite on the data directory and run raw wire-protocol bytes for
 * several client sessions over PGlite's one. Only buffers cross threads (the answers are
 * transferred, not copied). Plain JavaScript run with `eval`, so it needs no build step of its
 * own and loads PGlite natively (also under jest, whose module sandbox PGlite's WebAssembly
 * loading does not survive).
 *
 * Batches run one after another without waiting for the main thread between them. Before each,
 * the worker takes every batch already posted (receiveMessageOnPort: while PGlite runs, the
 * thread's event loop does not turn, so they queue in the port unseen) and runs the oldest that
 * is not marked background (`BACKGROUND_STATEMENT`): a write-behind flush must not hold a
 * request's statement, an event-log append above all, behind tens of milliseconds of
 * projections. A background batch runs when nothing else waits, or once it has waited
 * backgroundMaxWaitMs, so none starves. Each session has at most one batch in flight (a pg
 * connection sends its next statement after the answer), so a session's own order is kept.
 *
 * A batch that leaves a transaction open (its ReadyForQuery status is not 'I') makes its
 * session the owner: other sessions' batches wait until the owner's transaction ends, so a
 * transaction never sees another session's statements.
 *
 * An owner that sends nothing for ownerWaitMs while other sessions wait has its transaction
 * rolled back and its session ended, as PostgreSQL's idle_in_transaction_session_timeout does:
 * its later batches fail, and the others run. Without it, a client that died inside a
 * transaction, or a caller that queries outside its own transaction while holding it, would
 * stop every statement of the process for good.
 *
 * With `initialiseOnly` (`initialiseDataDirectory`) it only creates the database, closes it and
 * says so; the thread is then ended.
 */
const WORKER_SOURCE = `
const { parentPort, receiveMessageOnPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pglitePath);
const describe = (error) => String((error && error.message) || error);
const READY_FOR_QUERY = 0x5a;
const IDLE = 0x49;
/** The transaction status of the batch's last ReadyForQuery, when it ends with one. */
const transactionStatus = (bytes) =>
  bytes.length >= 6 && bytes[bytes.length - 6] === READY_FOR_QUERY ? bytes[bytes.length - 1] : undefined;
// A simple-query ROLLBACK: type 'Q', the length (itself and the text), the text, NUL.
const ROLLBACK = Buffer.concat([Buffer.from([0x51, 0, 0, 0, 13]), Buffer.from('ROLLBACK\\0', 'latin1')]);
const BACKGROUND = Buffer.from(workerData.backgroundMark, 'latin1');
/** Whether the batch's statement text starts with the background mark: a Parse (after its name) or a simple Query. */
const isBackground = (bytes) => {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = view[0];
  const text = type === 0x50 ? view.indexOf(0, 5) + 1 : type === 0x51 ? 5 : -1;
  return text > 0 && text + BACKGROUND.length <= view.length && view.compare(BACKGROUND, 0, BACKGROUND.length, text, text + BACKGROUND.length) === 0;
};
PGlite.create(workerData.dataDir).then(
  (db) => {
    if (workerData.initialiseOnly) {
      db.close().then(() => parentPort.postMessage({ type: 'initialised' }), (error) => parentPort.postMessage({ type: 'open-failed', message: describe(error) }));
      return;
    }
    const waiting = [];
    const ended = new Set();
    let owner = null;
    let ownerActiveAt = 0;
    let running = false;
    let closing = false;
    const accept = (message) => {
      if (message.type === 'close') {
        closing = true;
        return;
      }
      // Stamped when sent: while PGlite runs, a batch waits in the port before the worker sees it.
      waiting.push({ ...message, background: isBackground(message.bytes) });
    };
    const takePosted = () => {
      for (let posted = receiveMessageOnPort(parentPort); posted !== undefined; posted = receiveMessageOnPort(parentPort)) accept(posted.message);
    };
    /** The owner's next batch; else the oldest foreground one, unless the oldest batch is background and has waited its limit. */
    const nextIndex = () => {
      if (owner !== null) return waiting.findIndex((batch) => batch.session === owner);
      if (waiting.length === 0) return -1;
      if (!waiting[0].background || Date.now() - waiting[0].at >= workerData.backgroundMaxWaitMs) return 0;
      const foreground = waiting.findIndex((batch) => !batch.background);
      return foreground < 0 ? 0 : foreground;
    };
    const run = async () => {
      if (running) return;
      running = true;
      for (;;) {
        takePosted();
        const index = nextIndex();
        if (index < 0) break;
        const [batch] = waiting.splice(index, 1);
        if (ended.has(batch.session)) {
          parentPort.postMessage({ type: 'failed', id: batch.id, message: 'this session was ended: its transaction sat idle for ' + workerData.ownerWaitMs + ' ms while other sessions waited, and was rolled back' });
          continue;
        }
        try {
          const answer = (await db.execProtocolRaw(batch.bytes)).slice();
          const status = transactionStatus(answer);
          if (status !== undefined) owner = status === IDLE ? null : batch.session;
          ownerActiveAt = Date.now();
          parentPort.postMessage({ type: 'answer', id: batch.id, bytes: answer }, [answer.buffer]);
        } catch (error) {
          parentPort.postMessage({ type: 'failed', id: batch.id, message: describe(error) });
        }
      }
      running = false;
      if (closing && waiting.length === 0) close();
    };
    const close = async () => {
      await db.close().catch(() => undefined);
      parentPort.postMessage({ type: 'closed' });
    };
    const endIdleOwner = async () => {
      const now = Date.now();
      if (running || owner === null || now - ownerActiveAt < workerData.ownerWaitMs) return;
      if (!waiting.some((batch) => batch.session !== owner && now - batch.at >= workerData.ownerWaitMs)) return;
      running = true;
      try {
        await db.execProtocolRaw(ROLLBACK);
      } catch {
        // Nothing to roll back any more: the session is ended all the same.
      }
      ended.add(owner);
      owner = null;
      running = false;
      void run();
    };
    setInterval(() => void endIdleOwner(), Math.max(50, Math.floor(workerData.ownerWaitMs / 4))).unref();
    parentPort.postMessage({ type: 'ready' });
    parentPort.on('message', (message) => {
      accept(message);
      if (running) return;
      if (closing) close();
      else void run();
    });
  },
  (error) => parentPort.postMessage({ type: 'open-failed', message: describe(error) }),
);
`;

/**
 * How long a background batch may wait while foreground ones run: past it, it runs in its turn.
 * Above the write-behind flushes' 200 ms period, so a flush is only held back under a load
 * whose foreground statements alone keep the database busy.
 */
const BACKGROUND_MAX_WAIT_MS = 250;

/** What the worker program reads from `workerData`. */
function workerOptions(dataDir: string, ownerWaitMs: number, backgroundMaxWaitMs: number, initialiseOnly: boolean) {
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
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: workerOptions(dataDir, 0, 0, true) });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (message: WorkerMessage) => {
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

type WorkerMessage =
  | { type: 'ready' | 'closed' | 'initialised' }
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
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: workerOptions(dataDir, ownerWaitMs, backgroundMaxWaitMs, false) });
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
      this.worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'closed') void this.worker.terminate();
      });
      this.worker.postMessage({ type: 'close' });
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
      this.worker.postMessage({ type: 'query', id, session, bytes: exact, at: Date.now() }, [exact.buffer]);
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
