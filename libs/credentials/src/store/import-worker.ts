import { parentPort, workerData } from 'node:worker_threads';
import { BlockParser } from './parse-block';

/** An import worker: parses the blocks the reader sends it (parse-block.ts) and sends the records back. */
const parser = new BlockParser(workerData.key as Uint8Array);
parentPort?.on('message', (message: { seq: number; block: Uint8Array }) => {
  const parsed = parser.parse(Buffer.from(message.block.buffer, message.block.byteOffset, message.block.byteLength));
  parentPort?.postMessage({ seq: message.seq, parsed }, [parsed.records.buffer as ArrayBuffer]);
});
