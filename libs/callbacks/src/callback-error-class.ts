import { CALLBACK_ERROR_CLASSES, type CallbackErrorClass } from '@ringfence/contracts';

export type { CallbackErrorClass } from '@ringfence/contracts';

/** An attempt as stored: before error classes, its `error` was free text, a socket's message included. */
export interface StoredCallbackAttempt {
  at: number;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

const isErrorClass = (error: string): error is CallbackErrorClass => (CALLBACK_ERROR_CLASSES as readonly string[]).includes(error);

/**
 * An attempt as it may be shown (ADR-0016: a tenant sees the class, never the socket's
 * message): one recorded before error classes gets the class its old text tells, and loses the
 * text.
 */
export function classifiedAttempt<T extends StoredCallbackAttempt>(attempt: T): Omit<T, 'error'> & { error: CallbackErrorClass | null } {
  const { error } = attempt;
  if (error === null || isErrorClass(error)) return { ...attempt, error };
  return { ...attempt, error: legacyClass(attempt.httpStatus, error) };
}

/** The class an error text recorded before error classes stands for (our own texts, or Node's codes in a socket's message). */
function legacyClass(httpStatus: number | null, error: string): CallbackErrorClass {
  if (httpStatus !== null) return 'status';
  if (error.startsWith('not sent: the account has no callback URL')) return 'no-url';
  if (error.startsWith('not sent: the account has no callback secret')) return 'no-secret';
  if (error.startsWith('not sent')) return 'not-signed';
  if (error.startsWith('interrupted')) return 'interrupted';
  if (error.startsWith('timed out') || error.includes('ETIMEDOUT')) return 'timeout';
  if (error.includes('ECONNREFUSED')) return 'refused';
  if (error.includes('ENOTFOUND') || error.includes('EAI_AGAIN')) return 'dns';
  if (/CERT|SSL|TLS|EPROTO/.test(error)) return 'tls';
  return 'connection';
}
