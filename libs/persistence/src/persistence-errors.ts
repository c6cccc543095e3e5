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
