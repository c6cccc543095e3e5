import { randomBytes, randomUUID } from 'node:crypto';

/** A trace id: unique per request, carried in logs, the `x-trace-id` header and bus messages. */
export function newTraceId(): string {
  return randomUUID();
}

/** An event id, used by consumers to stay idempotent. */
export function newEventId(): string {
  return randomUUID();
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A random base62 string. Rejection sampling keeps every character uniform (a plain modulo of a
 * byte would favour the first characters).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A prefixed, sortable-enough identifier such as `acc_…` or `scr_…`. */
export function prefixedId(prefix: string, length = 20): string {
  return `${prefix}_${randomBase62(length)}`;
}
