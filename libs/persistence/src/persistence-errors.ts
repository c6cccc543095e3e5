/**
 * The database could not be opened or reached. Starting fails with it; readiness reports it.
 * The message names the database (without credentials) and the driver's reason.
 */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

// Socket-level failures of the driver, and PostgreSQL's SQLSTATE classes for "the connection
// is gone" (08) and "the server is shutting down or refusing work" (57P01-57P03).
const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3])/;
const UNAVAILABLE_DRIVER_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/**
 * True when a query failed because the database could not be reached, as opposed to a fault
 * in the query or the data: callers answer 503 ("retry") for these, 500 for the rest.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (current instanceof DatabaseUnavailableError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (UNAVAILABLE_DRIVER_MESSAGE.test(current.message)) return true;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? current.cause;
  }
  return false;
}

// SQLSTATE classes in which the database refused the statement for what it carried: data
// exceptions (22: a value out of range, invalid input syntax), integrity constraints (23), a
// value of the wrong type (42804 and its class), program limits (54: an index row too large).
const ROW_REFUSAL_SQLSTATE = /^(22|23|42|54)/;

/**
 * True when a write failed for the rows it carried, not for the database's state: the database
 * answered with a refusal of the data, or a value could not even be sent (a `RangeError` or
 * `TypeError` of the driver, as an invalid date gives). A writer behind the request finds the
 * refused rows and sets them aside after their attempts (ADR-0016); any other failure (the
 * database unreachable, a timeout, a transaction rolled back) leaves every row pending.
 */
export function isRowRefusal(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return false;
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (current instanceof RangeError || current instanceof TypeError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return ROW_REFUSAL_SQLSTATE.test(code);
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? current.cause;
  }
  return false;
}
