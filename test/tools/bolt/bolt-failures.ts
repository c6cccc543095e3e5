import { types } from 'node:util';
import type { GrafeoError } from '@grafeo-db/js';

/**
 * What goes into a Bolt FAILURE: a Neo4j status code and a message. Grafeo's errors get the
 * code Neo4j 5 gives for the same mistake, so code that branches on `Neo4jError.code` (retry on
 * a transient error, treat a constraint violation as "already exists") behaves as it will
 * against Neo4j.
 */

export interface BoltFailure {
  code: string;
  message: string;
}

export const NEO4J_CODE = {
  SYNTAX_ERROR: 'Neo.ClientError.Statement.SyntaxError',
  PARAMETER_MISSING: 'Neo.ClientError.Statement.ParameterMissing',
  TYPE_ERROR: 'Neo.ClientError.Statement.TypeError',
  ARITHMETIC_ERROR: 'Neo.ClientError.Statement.ArithmeticError',
  ACCESS_MODE: 'Neo.ClientError.Statement.AccessMode',
  CONSTRAINT_VALIDATION_FAILED: 'Neo.ClientError.Schema.ConstraintValidationFailed',
  DATABASE_NOT_FOUND: 'Neo.ClientError.Database.DatabaseNotFound',
  REQUEST_INVALID: 'Neo.ClientError.Request.Invalid',
  /** Retryable: the driver's executeRead/executeWrite run the transaction again. */
  DEADLOCK_DETECTED: 'Neo.TransientError.Transaction.DeadlockDetected',
  UNKNOWN_ERROR: 'Neo.DatabaseError.General.UnknownError',
} as const;

/** A failure the server itself decides on (a message out of place, a write in a read transaction). */
export class BoltClientError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function toBoltFailure(error: unknown): BoltFailure {
  if (error instanceof BoltClientError) return { code: error.code, message: error.message };
  // isNativeError, not instanceof: Grafeo's errors come from the main realm, and jest runs
  // tests in a realm of their own.
  if (!types.isNativeError(error)) return { code: NEO4J_CODE.UNKNOWN_ERROR, message: String(error) };
  return { code: codeForGrafeoError(gqlStatusOf(error), error.message), message: error.message };
}

/**
 * @grafeo-db/js moves the status from `error.cause` ("GQLSTATUS 42001") to `error.gqlStatus`,
 * but only for an `instanceof Error` of its own realm: under jest it stays in the cause.
 */
function gqlStatusOf(error: GrafeoError): string | undefined {
  if (error.gqlStatus !== undefined) return error.gqlStatus;
  const cause: unknown = error.cause;
  const match = types.isNativeError(cause) ? /^GQLSTATUS (\w+)$/.exec(cause.message) : null;
  return match?.[1];
}

/** By the ISO GQLSTATUS class Grafeo reports (and a few exact codes). */
function codeForGrafeoError(gqlStatus: string | undefined, message: string): string {
  if (gqlStatus === undefined) return NEO4J_CODE.UNKNOWN_ERROR;
  if (gqlStatus.startsWith('42')) return /missing parameter/i.test(message) ? NEO4J_CODE.PARAMETER_MISSING : NEO4J_CODE.SYNTAX_ERROR;
  if (gqlStatus === '22012') return NEO4J_CODE.ARITHMETIC_ERROR;
  if (gqlStatus.startsWith('22')) return NEO4J_CODE.TYPE_ERROR;
  // G1xxx/G2xxx: constraint violations (a duplicate key, DELETE of a node that has edges).
  if (/^G[12]/.test(gqlStatus)) return NEO4J_CODE.CONSTRAINT_VALIDATION_FAILED;
  // Grafeo refuses a write-write conflict at once where Neo4j would wait on a lock; the retry
  // the driver makes on a transient error gives what the wait would have given.
  if (gqlStatus.startsWith('40') && /conflict/i.test(message)) return NEO4J_CODE.DEADLOCK_DETECTED;
  return NEO4J_CODE.UNKNOWN_ERROR;
}
