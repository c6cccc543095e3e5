import { types } from 'node:util';

/**
 * PackStream v1, the value encoding of Bolt (https://neo4j.com/docs/bolt/current/packstream/).
 *
 * Written here rather than borrowed from neo4j-driver-bolt-connection: its codec is internal and
 * untyped, reached only through a transitive dependency, and bound to the driver's channel
 * buffers. A codec of our own also means the tests check the driver against a second reading of
 * the specification instead of against itself.
 *
 * INT and FLOAT are told apart by the JavaScript type: a `bigint` is an INT, a `number` a FLOAT.
 */

export type PackStreamValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | readonly PackStreamValue[]
  | BoltStructure
  | PackStreamMap;

export interface PackStreamMap {
  readonly [key: string]: PackStreamValue;
}

/** A structure: a one-byte tag and its fields (a Bolt message, a node, a date-time, ...). */
export class BoltStructure {
  constructor(
    readonly signature: number,
    readonly fields: readonly PackStreamValue[],
  ) {}
}

const MARKER = {
  TINY_STRING: 0x80,
  TINY_LIST: 0x90,
  TINY_MAP: 0xa0,
  TINY_STRUCT: 0xb0,
  NULL: 0xc0,
  FLOAT_64: 0xc1,
  FALSE: 0xc2,
  TRUE: 0xc3,
  INT_8: 0xc8,
  INT_16: 0xc9,
  INT_32: 0xca,
  INT_64: 0xcb,
  BYTES_8: 0xcc,
  BYTES_16: 0xcd,
  BYTES_32: 0xce,
  STRING_8: 0xd0,
  STRING_16: 0xd1,
  STRING_32: 0xd2,
  LIST_8: 0xd4,
  LIST_16: 0xd5,
  LIST_32: 0xd6,
  MAP_8: 0xd8,
  MAP_16: 0xd9,
  MAP_32: 0xda,
} as const;

/** The marker bytes of one sized type: tiny (size in the low nibble, if any), 8, 16 and 32 bits. */
interface SizedMarkers {
  tiny?: number;
  size8: number;
  size16: number;
  size32: number;
}

const STRING_MARKERS: SizedMarkers = { tiny: MARKER.TINY_STRING, size8: MARKER.STRING_8, size16: MARKER.STRING_16, size32: MARKER.STRING_32 };
const LIST_MARKERS: SizedMarkers = { tiny: MARKER.TINY_LIST, size8: MARKER.LIST_8, size16: MARKER.LIST_16, size32: MARKER.LIST_32 };
const MAP_MARKERS: SizedMarkers = { tiny: MARKER.TINY_MAP, size8: MARKER.MAP_8, size16: MARKER.MAP_16, size32: MARKER.MAP_32 };
const BYTES_MARKERS: SizedMarkers = { size8: MARKER.BYTES_8, size16: MARKER.BYTES_16, size32: MARKER.BYTES_32 };

const MIN_INT_64 = -(2n ** 63n);
const MAX_INT_64 = 2n ** 63n - 1n;
const MAX_TINY_STRUCT_FIELDS = 15;

/** Encodes values into one growing buffer; also writes raw bytes for the message framing. */
export class PackStreamWriter {
  private buffer = Buffer.allocUnsafe(4096);
  private size = 0;

  get length(): number {
    return this.size;
  }

  write(value: PackStreamValue): void {
    if (value === null) this.writeUInt8(MARKER.NULL);
    else if (typeof value === 'boolean') this.writeUInt8(value ? MARKER.TRUE : MARKER.FALSE);
    else if (typeof value === 'number') this.writeFloat(value);
    else if (typeof value === 'bigint') this.writeInt(value);
    else if (typeof value === 'string') this.writeString(value);
    else if (types.isUint8Array(value)) this.writeByteArray(value);
    else if (Array.isArray(value)) this.writeList(value);
    else if (value instanceof BoltStructure) this.writeStructure(value);
    else this.writeMap(value as PackStreamMap);
  }

  writeBytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.size);
    this.size += bytes.length;
  }

  writeUInt16(value: number): void {
    this.reserve(2);
    this.size = this.buffer.writeUInt16BE(value, this.size);
  }

  /** Overwrites two bytes already written: the framing fills in a chunk size after the fact. */
  patchUInt16(offset: number, value: number): void {
    this.buffer.writeUInt16BE(value, offset);
  }

  /** A view of the bytes from `start`, valid until the next write. */
  view(start = 0): Buffer {
    return this.buffer.subarray(start, this.size);
  }

  truncate(length: number): void {
    this.size = length;
  }

  /** A copy of everything written; the writer is empty afterwards. */
  take(): Buffer {
    const bytes = Buffer.from(this.view());
    this.size = 0;
    return bytes;
  }

  private writeInt(value: bigint): void {
    // Number comparisons: BigInt ones cost several times more, and results are mostly small ints.
    const number = Number(value);
    if (number >= -16 && number < 128) {
      this.writeUInt8(number & 0xff);
    } else if (number >= -128 && number < 128) {
      this.writeUInt8(MARKER.INT_8);
      this.reserve(1);
      this.size = this.buffer.writeInt8(number, this.size);
    } else if (number >= -32_768 && number < 32_768) {
      this.writeUInt8(MARKER.INT_16);
      this.reserve(2);
      this.size = this.buffer.writeInt16BE(number, this.size);
    } else if (number >= -2_147_483_648 && number < 2_147_483_648) {
      this.writeUInt8(MARKER.INT_32);
      this.reserve(4);
      this.size = this.buffer.writeInt32BE(number, this.size);
    } else {
      if (value < MIN_INT_64 || value > MAX_INT_64) throw new RangeError(`${value} does not fit a PackStream INT (64 bits)`);
      this.writeUInt8(MARKER.INT_64);
      this.reserve(8);
      this.size = this.buffer.writeBigInt64BE(value, this.size);
    }
  }

  private writeFloat(value: number): void {
    this.writeUInt8(MARKER.FLOAT_64);
    this.reserve(8);
    this.size = this.buffer.writeDoubleBE(value, this.size);
  }

  private writeString(value: string): void {
    const byteLength = Buffer.byteLength(value, 'utf8');
    this.writeSizeMarker(STRING_MARKERS, byteLength);
    this.reserve(byteLength);
    this.size += this.buffer.write(value, this.size, byteLength, 'utf8');
  }

  private writeByteArray(value: Uint8Array): void {
    this.writeSizeMarker(BYTES_MARKERS, value.length);
    this.writeBytes(value);
  }

  private writeList(values: readonly PackStreamValue[]): void {
    this.writeSizeMarker(LIST_MARKERS, values.length);
    for (const value of values) this.write(value);
  }

  private writeMap(map: PackStreamMap): void {
    const keys = Object.keys(map);
    this.writeSizeMarker(MAP_MARKERS, keys.length);
    for (const key of keys) {
      this.writeString(key);
      this.write(map[key]);
    }
  }

  private writeStructure(structure: BoltStructure): void {
    if (structure.fields.length > MAX_TINY_STRUCT_FIELDS) throw new RangeError(`a structure holds at most ${MAX_TINY_STRUCT_FIELDS} fields`);
    this.writeUInt8(MARKER.TINY_STRUCT | structure.fields.length);
    this.writeUInt8(structure.signature);
    for (const field of structure.fields) this.write(field);
  }

  private writeSizeMarker(markers: SizedMarkers, size: number): void {
    if (markers.tiny !== undefined && size < 0x10) {
      this.writeUInt8(markers.tiny | size);
    } else if (size < 0x100) {
      this.writeUInt8(markers.size8);
      this.writeUInt8(size);
    } else if (size < 0x10000) {
      this.writeUInt8(markers.size16);
      this.writeUInt16(size);
    } else {
      this.writeUInt8(markers.size32);
      this.reserve(4);
      this.size = this.buffer.writeUInt32BE(size, this.size);
    }
  }

  private writeUInt8(value: number): void {
    this.reserve(1);
    this.buffer[this.size++] = value;
  }

  private reserve(bytes: number): void {
    if (this.size + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.size + bytes));
    this.buffer.copy(grown, 0, 0, this.size);
    this.buffer = grown;
  }
}

/** Decodes one value, normally a whole Bolt message, from `bytes`. */
export function decodePackStream(bytes: Buffer): PackStreamValue {
  const reader = new PackStreamReader(bytes);
  const value = reader.read();
  if (!reader.atEnd()) throw new Error('PackStream: bytes left after the value');
  return value;
}

class PackStreamReader {
  private offset = 0;

  constructor(private readonly bytes: Buffer) {}

  atEnd(): boolean {
    return this.offset === this.bytes.length;
  }

  read(): PackStreamValue {
    const marker = this.readUInt8();
    const high = marker & 0xf0;
    const low = marker & 0x0f;
    if (marker < 0x80) return BigInt(marker);
    if (marker >= 0xf0) return BigInt(marker - 0x100);
    if (high === MARKER.TINY_STRING) return this.readString(low);
    if (high === MARKER.TINY_LIST) return this.readList(low);
    if (high === MARKER.TINY_MAP) return this.readMap(low);
    if (high === MARKER.TINY_STRUCT) return new BoltStructure(this.readUInt8(), this.readList(low));
    switch (marker) {
      case MARKER.NULL:
        return null;
      case MARKER.TRUE:
        return true;
      case MARKER.FALSE:
        return false;
      case MARKER.FLOAT_64:
        return this.advance(8, (at) => this.bytes.readDoubleBE(at));
      case MARKER.INT_8:
        return BigInt(this.advance(1, (at) => this.bytes.readInt8(at)));
      case MARKER.INT_16:
        return BigInt(this.advance(2, (at) => this.bytes.readInt16BE(at)));
      case MARKER.INT_32:
        return BigInt(this.advance(4, (at) => this.bytes.readInt32BE(at)));
      case MARKER.INT_64:
        return this.advance(8, (at) => this.bytes.readBigInt64BE(at));
      case MARKER.BYTES_8:
      case MARKER.BYTES_16:
      case MARKER.BYTES_32:
        return this.readByteArray(this.readSize(marker - MARKER.BYTES_8));
      case MARKER.STRING_8:
      case MARKER.STRING_16:
      case MARKER.STRING_32:
        return this.readString(this.readSize(marker - MARKER.STRING_8));
      case MARKER.LIST_8:
      case MARKER.LIST_16:
      case MARKER.LIST_32:
        return this.readList(this.readSize(marker - MARKER.LIST_8));
      case MARKER.MAP_8:
      case MARKER.MAP_16:
      case MARKER.MAP_32:
        return this.readMap(this.readSize(marker - MARKER.MAP_8));
      default:
        throw new Error(`PackStream: unknown marker 0x${marker.toString(16)}`);
    }
  }

  /** The size after an 8-, 16- or 32-bit marker (`width` 0, 1 or 2). */
  private readSize(width: number): number {
    if (width === 0) return this.readUInt8();
    if (width === 1) return this.advance(2, (at) => this.bytes.readUInt16BE(at));
    return this.advance(4, (at) => this.bytes.readUInt32BE(at));
  }

  private readString(byteLength: number): string {
    return this.advance(byteLength, (at) => this.bytes.toString('utf8', at, at + byteLength));
  }

  private readByteArray(length: number): Buffer {
    return this.advance(length, (at) => Buffer.from(this.bytes.subarray(at, at + length)));
  }

  private readList(length: number): PackStreamValue[] {
    const values: PackStreamValue[] = [];
    for (let index = 0; index < length; index++) values.push(this.read());
    return values;
  }

  private readMap(size: number): PackStreamMap {
    const entries: Array<[string, PackStreamValue]> = [];
    for (let index = 0; index < size; index++) {
      const key = this.read();
      if (typeof key !== 'string') throw new Error('PackStream: a map key is not a string');
      entries.push([key, this.read()]);
    }
    // fromEntries defines own properties, so a key such as "__proto__" stays a plain key.
    return Object.fromEntries(entries);
  }

  private readUInt8(): number {
    return this.advance(1, (at) => this.bytes[at]);
  }

  private advance<T>(length: number, readAt: (offset: number) => T): T {
    if (this.offset + length > this.bytes.length) throw new Error('PackStream: the value runs past the end of the message');
    const value = readAt(this.offset);
    this.offset += length;
    return value;
  }
}
