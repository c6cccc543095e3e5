import { parentPort, workerData } from 'node:worker_threads';
import type { ImportWorkerReply, ImportWorkerRequest } from './import-worker-pool';
import { BlockParser } from './parse-block';
import { mergePartitions } from './store-merge';

/** An import worker (import-worker-pool.ts): parses the blocks and merges the partitions it is sent. */
const parser = new BlockParser(workerData.key as Uint8Array);
parentPort?.on('message', (request: ImportWorkerRequest) => {
  let reply: ImportWorkerReply;
  const transfer: ArrayBuffer[] = [];
  try {
    if (request.kind === 'parse') {
      const parsed = parser.parse(Buffer.from(request.block.buffer, request.block.byteOffset, request.block.byteLength));
      transfer.push(parsed.records.buffer as ArrayBuffer);
      reply = { seq: request.seq, parsed };
    } else {
      reply = { seq: request.seq, counts: mergePartitions(request.tasks) };
    }
  } catch (error: unknown) {
    reply = { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply, transfer);
});
