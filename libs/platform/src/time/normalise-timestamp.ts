/**
 * Payload timestamps arrive in seconds, milliseconds, microseconds or nanoseconds; the unit is
 * told by magnitude (decisions §1) and everything is stored in epoch milliseconds.
 */
export function normaliseTimestampToMillis(value: number): number {
  if (value < 1e11) return Math.round(value * 1000);
  if (value < 1e14) return Math.round(value);
  if (value < 1e17) return Math.round(value / 1e3);
  return Math.round(value / 1e6);
}
