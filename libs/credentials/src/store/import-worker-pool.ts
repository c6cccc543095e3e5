import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BlockParser, type ParsedBlock } from './parse-block';
import { type PartitionCounts, type PartitionMergeTask, mergePartitions } from './store-merge';

/** What the import's workers are asked (import-worker.ts answers with the same `seq`). */
export type ImportWorkerRequest = { seq: number; kind: 'parse'; block: Uint8Array } | { seq: number; kind: 'merge'; tasks: PartitionMergeTask[] };
export type ImportWorkerReply = { seq: number; parsed: ParsedBlock } | { seq: number; counts: PartitionCounts[] } | { seq: number; error: string };

/**
 * The import's worker threads, one per core by default: they parse blocks (the hashing of every
 * line is the reading step's main cost) and merge partitions (sorting, writing and indexing each
 * is the merge step's). From TypeScript sources (the unit tests) there is no compiled worker
 * file, so the work is done in this thread instead: same code, no parallelism.
 */
export class ImportWorkerPool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (reply: ImportWorkerReply) => void; reject: (error: Error) => void }>();
  private seq = 0;
  private next = 0;
  private inThreadParser: BlockParser | undefined;

  constructor(
    private readonly key: Buffer,
    threads = availableParallelism(),
  ) {
    const workerFile = join(__dirname, 'import-worker.js');
    if (threads < 1 || !existsSync(workerFile)) return;
    for (let i = 0; i < threads; i += 1) {
      const worker = new Worker(workerFile, { workerData: { key: new Uint8Array(key) } });
      worker.on('message', (reply: ImportWorkerReply) => {
        const waiter = this.waiting.get(reply.seq);
        this.waiting.delete(reply.seq);
        if ('error' in reply) waiter?.reject(new Error(reply.error));
        else waiter?.resolve(reply);
      });
      worker.on('error', (error) => {
        for (const waiter of this.waiting.values()) waiter.reject(error);
        this.waiting.clear();
      });
      this.workers.push(worker);
    }
  }

  /** Worker threads running (0: the work is done in the calling thread). */
  get threads(): number {
    return this.workers.length;
  }

  /** Parses a block; the block's memory moves to the worker. */
  async parse(block: Buffer): Promise<ParsedBlock> {
    if (this.workers.length === 0) {
      this.inThreadParser ??= new BlockParser(this.key);
      return this.inThreadParser.parse(block);
    }
    const reply = await this.ask({ seq: this.seq++, kind: 'parse', block }, [block.buffer as ArrayBuffer]);
    return (reply as { parsed: ParsedBlock }).parsed;
  }

  async mergePartitions(tasks: PartitionMergeTask[]): Promise<PartitionCounts[]> {
    if (this.workers.length === 0) return mergePartitions(tasks);
    const reply = await this.ask({ seq: this.seq++, kind: 'merge', tasks });
    return (reply as { counts: PartitionCounts[] }).counts;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private ask(request: ImportWorkerRequest, transfer: ArrayBuffer[] = []): Promise<ImportWorkerReply> {
    const worker = this.workers[this.next++ % this.workers.length];
    return new Promise((resolve, reject) => {
      this.waiting.set(request.seq, { resolve, reject });
      worker.postMessage(request, transfer);
    });
  }
}
