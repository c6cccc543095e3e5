/**
 * The error codes every transport maps to a status. Domain code throws `AppError`s; the HTTP
 * filter and the bus turn them into the envelope or a failed reply.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  DEPENDENCY_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;

  constructor(readonly code: ErrorCode, message: string) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** The generic text sent for unexpected errors; details stay in the log under the traceId. */
export const INTERNAL_ERROR_MESSAGE = 'internal error; quote the traceId to the operator';

/** 429 with the seconds after which the client may try again (the `Retry-After` header). */
export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number, message: string) {
    super('RATE_LIMITED', message);
    this.name = 'RateLimitedError';
  }
}
