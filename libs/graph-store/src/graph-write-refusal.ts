import { isRowRefusal } from '@ringfence/persistence';

// Neo4j's status codes are `Neo.<classification>.<category>.<title>`. A client error of the
// statement (a value of the wrong type, an argument out of range) or of the schema (a
// constraint the data breaks) is about what the write carried; transient and database errors,
// the driver's own codes (`ServiceUnavailable`, `SessionExpired`) and the other client
// categories (security, a transaction terminated) say that the store could not be asked.
const NEO4J_ROW_REFUSAL = /^Neo\.ClientError\.(Statement|Schema)\./;

/**
 * True when a graph store refused a write for the changes it carried, not for its own state
 * (ADR-0016): a Neo4j `Neo.ClientError.Statement.*` or `Neo.ClientError.Schema.*`, or a
 * row refusal of the relational database (`isRowRefusal`: the `RangeError`/`TypeError` both
 * adapters throw for a time or kind they cannot store, a SQLSTATE of class 22, 23, 42 or 54).
 * The graph's writer behind its consumer sets such changes aside after their attempts; any
 * other failure leaves every change pending.
 */
export function isGraphWriteRefusal(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && code.startsWith('Neo.')) return NEO4J_ROW_REFUSAL.test(code);
    current = (current as { cause?: unknown }).cause;
  }
  return isRowRefusal(error);
}
