import { parentPort, workerData } from 'node:worker_threads';
import { parseBlock } from './parse-block';

/** An import worker: parses the blocks the reader sends it (parse-block.ts) and sends the records back. */
const key = Buffer.from(workerData.key as Uint8Array);
parentPort?.on('message', (message: { seq: number; block: Uint8Array }) => {
  const parsed = parseBlock(Buffer.from(message.block.buffer, message.block.byteOffset, message.block.byteLength), key);
  parentPort?.postMessage({ seq: message.seq, parsed }, [parsed.records.buffer as ArrayBuffer]);
});
