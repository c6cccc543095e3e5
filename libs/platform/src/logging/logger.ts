import pino, { type Logger } from 'pino';
import type { LogLevel } from '../config/ringfence-config';

/**
 * Paths whose values never reach a log line: API keys, the admin token and password hashes
 * (ADR-0006; the security brief). Wildcards cover one level of nesting below the listed key.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'passwordHash',
  '*.passwordHash',
  '*.*.passwordHash',
  // The registration payload's password hash (registration.registrationMechanism.password).
  '*.*.*.passwordHashed',
  '*.*.*.*.passwordHashed',
  '*.*.*.*.*.passwordHashed',
  // The admin import's body: `{entries: [{username, passwordHash}]}`.
  'entries[*].passwordHash',
  '*.entries[*].passwordHash',
  '*.*.entries[*].passwordHash',
  'password',
  '*.password',
  'apiKey',
  '*.apiKey',
  'key',
  '*.key',
  // An account's review-callback HMAC keys, one per data set (its settings, a PATCH body, an
  // account logged whole).
  'callbackSecret',
  '*.callbackSecret',
  '*.*.callbackSecret',
  '*.*.*.callbackSecret',
  'testCallbackSecret',
  '*.testCallbackSecret',
  '*.*.testCallbackSecret',
  '*.*.*.testCallbackSecret',
  // A failed statement's parameters (TypeORM's QueryFailedError) may hold any of the above: the
  // settings merge carries the callback secret, an import its hashes.
  'err.parameters',
  '*.err.parameters',
  // PostgreSQL's `detail` names the row's values (`Key (email)=(ada@example.com) already
  // exists`); TypeORM copies it onto its error and keeps the driver's error too. Personal data
  // stays out of logs (ADR-0016); the code, constraint and table still say what failed.
  'err.detail',
  'err.driverError.detail',
  '*.err.detail',
  '*.err.driverError.detail',
];

export type { Logger };

/** Structured JSON logging for every app; one line per event, traceId where there is one. */
export function createLogger(options: { level: LogLevel; service: string }): Logger {
  return pino({
    level: options.level,
    base: { service: options.service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
