/**
 * Payload timestamps arrive in seconds, milliseconds, microseconds or nanoseconds; the unit is
 * told by magnitude (ADR-0001) and everything is stored in epoch milliseconds.
 */
export function normaliseTimestampToMillis(value: number): number {
  if (value < 1e11) return Math.round(value * 1000);
  if (value < 1e14) return Math.round(value);
  if (value < 1e17) return Math.round(value / 1e3);
  return Math.round(value / 1e6);
}

/**
 * The times a request may carry, once normalised: [1970-01-01, 2100-01-01) in epoch ms (ADR-0016).
 * Every store keeps times as 64-bit integers (PostgreSQL `bigint`, Neo4j integers) and
 * derives day numbers from them as 32-bit ones; a time far outside this range (`1e30` reads as
 * 1e24 ms) fits none of them, and a writer that cannot store a row stops the rows behind it.
 */
export const EARLIEST_TIMESTAMP_MS = 0;
export const TIMESTAMP_LIMIT_MS = Date.UTC(2100, 0, 1);

/**
 * Whether `value`, an integer in any unit `normaliseTimestampToMillis` reads, is a time a request
 * may carry: in the accepted range once normalised, and still in it when its milliseconds are read
 * again. Every later reader of the event (a Kafka consumer, a replay of the event log) validates
 * those milliseconds with the same rules, and milliseconds below 1e11 read as seconds: a time
 * from 1970-02-17 to 1973-03-03 would be accepted here and refused there, so it is refused here.
 */
export function isTimestampInRange(value: number): boolean {
  if (!Number.isInteger(value) || value < 0) return false;
  const millis = normaliseTimestampToMillis(value);
  return inRange(millis) && inRange(normaliseTimestampToMillis(millis));
}

function inRange(millis: number): boolean {
  return millis >= EARLIEST_TIMESTAMP_MS && millis < TIMESTAMP_LIMIT_MS;
}
