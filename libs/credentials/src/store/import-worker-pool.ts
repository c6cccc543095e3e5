import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BlockParser, type ParsedBlock } from './parse-block';

/**
 * Parses blocks in worker threads (the HMAC and SHA-256 of every line are the import's main
 * cost), one per core by default. From TypeScript sources (the unit tests) there is no compiled
 * worker file, so blocks are parsed in this thread instead: same code, no parallelism.
 */
export class BlockParserPool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (parsed: ParsedBlock) => void; reject: (error: Error) => void }>();
  private seq = 0;
  private next = 0;
  private inThread: BlockParser | undefined;

  constructor(
    private readonly key: Buffer,
    threads = availableParallelism(),
  ) {
    const workerFile = join(__dirname, 'parse-worker.js');
    if (threads < 1 || !existsSync(workerFile)) return;
    for (let i = 0; i < threads; i += 1) {
      const worker = new Worker(workerFile, { workerData: { key: new Uint8Array(key) } });
      worker.on('message', (message: { seq: number; parsed: ParsedBlock }) => {
        const waiter = this.waiting.get(message.seq);
        this.waiting.delete(message.seq);
        waiter?.resolve(message.parsed);
      });
      worker.on('error', (error) => {
        for (const waiter of this.waiting.values()) waiter.reject(error);
        this.waiting.clear();
      });
      this.workers.push(worker);
    }
  }

  get threads(): number {
    return this.workers.length;
  }

  parse(block: Buffer): Promise<ParsedBlock> {
    if (this.workers.length === 0) {
      this.inThread ??= new BlockParser(this.key);
      return Promise.resolve(this.inThread.parse(block));
    }
    const seq = this.seq++;
    const worker = this.workers[this.next++ % this.workers.length];
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      worker.postMessage({ seq, block }, [block.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
