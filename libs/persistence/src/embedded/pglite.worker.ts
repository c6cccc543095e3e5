import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import type { PGliteWorkerData, WorkerReply, WorkerRequest } from './pglite-worker.messages';

/**
 * The embedded database's worker thread: opens PGlite on the data directory and runs raw
 * wire-protocol bytes for several client sessions over PGlite's one. Only buffers cross threads
 * (the answers are transferred, not copied). It imports nothing of the repository at run time
 * (types only, and PGlite by the path it is given), so the same module runs compiled from dist
 * and, under jest, transpiled from this source (`pglite-worker.loader.ts`); it loads PGlite
 * natively either way, outside jest's module sandbox, which PGlite's WebAssembly loading does
 * not survive.
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

const READY_FOR_QUERY = 0x5a;
const IDLE = 0x49;
const PARSE = 0x50;
const QUERY = 0x51;
// A simple-query ROLLBACK: type 'Q', the length (itself and the text), the text, NUL.
const ROLLBACK = Buffer.concat([Buffer.from([QUERY, 0, 0, 0, 13]), Buffer.from('ROLLBACK\0', 'latin1')]);

type QueryRequest = Extract<WorkerRequest, { type: 'query' }>;
type Batch = QueryRequest & { background: boolean };

function describeError(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message !== '' ? message : String(error);
}

/** The transaction status of the batch's last ReadyForQuery, when it ends with one. */
function transactionStatus(bytes: Uint8Array): number | undefined {
  return bytes.length >= 6 && bytes[bytes.length - 6] === READY_FOR_QUERY ? bytes[bytes.length - 1] : undefined;
}

/** Whether the batch's statement text starts with the mark: a Parse (after its name) or a simple Query. */
function startsWithMark(bytes: Uint8Array, mark: Buffer): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = view[0];
  const text = type === PARSE ? view.indexOf(0, 5) + 1 : type === QUERY ? 5 : -1;
  return text > 0 && text + mark.length <= view.length && view.compare(mark, 0, mark.length, text, text + mark.length) === 0;
}

/** Runs the sessions' batches on the one PGlite session, in the order described above. */
class SessionScheduler {
  private readonly waiting: Batch[] = [];
  private readonly ended = new Set<number>();
  private readonly backgroundMark: Buffer;
  private owner: number | null = null;
  private ownerActiveAt = 0;
  private running = false;
  private closing = false;

  constructor(
    private readonly db: PGlite,
    private readonly port: MessagePort,
    private readonly options: PGliteWorkerData,
  ) {
    this.backgroundMark = Buffer.from(options.backgroundMark, 'latin1');
  }

  start(): void {
    setInterval(() => void this.endIdleOwner(), Math.max(50, Math.floor(this.options.ownerWaitMs / 4))).unref();
    this.reply({ type: 'ready' });
    this.port.on('message', (message: WorkerRequest) => {
      this.accept(message);
      if (this.running) return;
      if (this.closing) void this.close();
      else void this.run();
    });
  }

  private reply(message: WorkerReply, transfer?: ArrayBuffer[]): void {
    this.port.postMessage(message, transfer);
  }

  private accept(message: WorkerRequest): void {
    if (message.type === 'close') {
      this.closing = true;
      return;
    }
    // Stamped when sent: while PGlite runs, a batch waits in the port before the worker sees it.
    this.waiting.push({ ...message, background: startsWithMark(message.bytes, this.backgroundMark) });
  }

  private takePosted(): void {
    for (let posted = receiveMessageOnPort(this.port); posted !== undefined; posted = receiveMessageOnPort(this.port)) {
      this.accept(posted.message as WorkerRequest);
    }
  }

  /** The owner's next batch; else the oldest foreground one, unless the oldest batch is background and has waited its limit. */
  private nextIndex(): number {
    if (this.owner !== null) return this.waiting.findIndex((batch) => batch.session === this.owner);
    const oldest = this.waiting[0];
    if (oldest === undefined) return -1;
    if (!oldest.background || Date.now() - oldest.at >= this.options.backgroundMaxWaitMs) return 0;
    const foreground = this.waiting.findIndex((batch) => !batch.background);
    return foreground < 0 ? 0 : foreground;
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    for (;;) {
      this.takePosted();
      const index = this.nextIndex();
      if (index < 0) break;
      const [batch] = this.waiting.splice(index, 1) as [Batch];
      await this.execute(batch);
    }
    this.running = false;
    if (this.closing && this.waiting.length === 0) await this.close();
  }

  private async execute(batch: Batch): Promise<void> {
    if (this.ended.has(batch.session)) {
      const message = `this session was ended: its transaction sat idle for ${this.options.ownerWaitMs} ms while other sessions waited, and was rolled back`;
      this.reply({ type: 'failed', id: batch.id, message });
      return;
    }
    try {
      const answer = (await this.db.execProtocolRaw(batch.bytes)).slice();
      const status = transactionStatus(answer);
      if (status !== undefined) this.owner = status === IDLE ? null : batch.session;
      this.ownerActiveAt = Date.now();
      this.reply({ type: 'answer', id: batch.id, bytes: answer }, [answer.buffer as ArrayBuffer]);
    } catch (error: unknown) {
      this.reply({ type: 'failed', id: batch.id, message: describeError(error) });
    }
  }

  private async close(): Promise<void> {
    await this.db.close().catch(() => undefined);
    this.reply({ type: 'closed' });
  }

  private async endIdleOwner(): Promise<void> {
    const now = Date.now();
    const owner = this.owner;
    if (this.running || owner === null || now - this.ownerActiveAt < this.options.ownerWaitMs) return;
    if (!this.waiting.some((batch) => batch.session !== owner && now - batch.at >= this.options.ownerWaitMs)) return;
    this.running = true;
    try {
      await this.db.execProtocolRaw(ROLLBACK);
    } catch {
      // Nothing to roll back any more: the session is ended all the same.
    }
    this.ended.add(owner);
    this.owner = null;
    this.running = false;
    void this.run();
  }
}

async function main(port: MessagePort, options: PGliteWorkerData): Promise<void> {
  // By path: the transpiled source runs from an eval'd script, whose own resolution starts elsewhere.
  const { PGlite: PGliteClass } = require(options.pglitePath) as typeof import('@electric-sql/pglite');
  let db: PGlite;
  try {
    db = await PGliteClass.create(options.dataDir);
  } catch (error: unknown) {
    port.postMessage({ type: 'open-failed', message: describeError(error) } satisfies WorkerReply);
    return;
  }
  if (options.initialiseOnly) {
    const reply: WorkerReply = await db.close().then(
      () => ({ type: 'initialised' }),
      (error: unknown) => ({ type: 'open-failed', message: describeError(error) }),
    );
    port.postMessage(reply);
    return;
  }
  new SessionScheduler(db, port, options).start();
}

if (parentPort !== null) void main(parentPort, workerData as PGliteWorkerData);
