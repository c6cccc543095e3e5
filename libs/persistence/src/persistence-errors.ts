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
