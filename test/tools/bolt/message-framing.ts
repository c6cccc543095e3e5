import { BoltStructure, type PackStreamValue, PackStreamWriter } from './packstream';

/**
 * Bolt's message framing: a message travels as chunks, each a two-byte big-endian size and at
 * most 65,535 bytes, and ends with an empty chunk (0x0000). An empty chunk between messages is a
 * keep-alive (NOOP) and carries nothing.
 */

const MAX_CHUNK_SIZE = 0xffff;
const END_OF_MESSAGE = 0;

/** Splits the incoming byte stream into whole messages, however TCP cut it. */
export class MessageDechunker {
  private pending = Buffer.alloc(0);
  private chunks: Buffer[] = [];

  /** Takes more bytes; returns the messages they completed, in order. */
  push(data: Buffer): Buffer[] {
    const bytes = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    const messages: Buffer[] = [];
    let offset = 0;
    while (bytes.length - offset >= 2) {
      const chunkSize = bytes.readUInt16BE(offset);
      if (chunkSize === END_OF_MESSAGE) {
        if (this.chunks.length > 0) messages.push(Buffer.concat(this.chunks));
        this.chunks = [];
        offset += 2;
        continue;
      }
      if (bytes.length - offset - 2 < chunkSize) break;
      this.chunks.push(Buffer.from(bytes.subarray(offset + 2, offset + 2 + chunkSize)));
      offset += 2 + chunkSize;
    }
    this.pending = Buffer.from(bytes.subarray(offset));
    return messages;
  }
}

/** Collects framed response messages into one buffer, to hand to the socket in one write. */
export class OutgoingMessages {
  private readonly writer = new PackStreamWriter();

  get byteLength(): number {
    return this.writer.length;
  }

  add(signature: number, fields: readonly PackStreamValue[]): void {
    const headerOffset = this.writer.length;
    this.writer.writeUInt16(0);
    this.writer.write(new BoltStructure(signature, fields));
    const payloadLength = this.writer.length - headerOffset - 2;
    if (payloadLength <= MAX_CHUNK_SIZE) {
      this.writer.patchUInt16(headerOffset, payloadLength);
    } else {
      this.splitIntoChunks(headerOffset, payloadLength);
    }
    this.writer.writeUInt16(END_OF_MESSAGE);
  }

  /** Everything added so far; empties the collection. */
  take(): Buffer {
    return this.writer.take();
  }

  /** The rare message over one chunk: rewritten as a series of full chunks. */
  private splitIntoChunks(headerOffset: number, payloadLength: number): void {
    const payload = Buffer.from(this.writer.view(headerOffset + 2));
    this.writer.truncate(headerOffset);
    for (let start = 0; start < payloadLength; start += MAX_CHUNK_SIZE) {
      const chunk = payload.subarray(start, Math.min(start + MAX_CHUNK_SIZE, payloadLength));
      this.writer.writeUInt16(chunk.length);
      this.writer.writeBytes(chunk);
    }
  }
}
