import neo4j, { type Integer } from 'neo4j-driver';

/**
 * An integer parameter. A JavaScript number would travel as a Bolt FLOAT and be stored as one:
 * times and slots are sent as Bolt INTEGERs so that they compare, index and read back as
 * integers whoever wrote them.
 */
export function toNeo4jInteger(value: number): Integer {
  return neo4j.int(value);
}

/**
 * A stored integer as a number, whatever the driver's `disableLosslessIntegers`: with it,
 * integers arrive as numbers; without it, as `Integer`s. Epoch milliseconds need more than 32
 * bits but stay far below 2^53; anything beyond is refused rather than rounded.
 */
export function fromNeo4jInteger(value: unknown, field: string): number {
  if (neo4j.isInt(value)) {
    if (!value.inSafeRange()) throw new RangeError(`${field} ${value.toString()} is beyond Number.MAX_SAFE_INTEGER`);
    return value.toNumber();
  }
  if (typeof value === 'bigint') return fromNeo4jInteger(neo4j.int(value), field);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new TypeError(`${field} is not an integer: ${String(value)}`);
}
