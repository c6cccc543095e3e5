import type { CallbackErrorClass } from '@ringfence/contracts';

export type { CallbackErrorClass } from '@ringfence/contracts';

/**
 * Why an attempt got no 2xx, as the tenant sees it (decisions §16): a class
 * (`CALLBACK_ERROR_CLASSES`) with a fixed description, never the socket's message. The
 * operator's log keeps the detail.
 */
export const CALLBACK_ERROR_DESCRIPTIONS: Record<CallbackErrorClass, string> = {
  timeout: 'timeout: no answer within the attempt timeout',
  refused: 'refused: the receiver refused the connection',
  tls: 'tls: the TLS handshake failed or the certificate did not verify',
  status: 'status: the receiver answered with a status other than 2xx',
  address: 'address: the host resolved to an address callbacks may not reach (only public internet addresses)',
  dns: 'dns: the host did not resolve',
  connection: 'connection: the connection failed or was closed before an answer',
  interrupted: 'interrupted: the service stopped',
  'not-sent': 'not sent',
};

/** An attempt as stored before error classes: its `error` may be a socket's message. */
export interface StoredCallbackAttempt {
  at: number;
  httpStatus: number | null;
  errorClass?: CallbackErrorClass | null;
  error: string | null;
  durationMs: number;
}

/**
 * An attempt as it may be shown: one recorded before error classes gets the class its record
 * allows (a non-2xx status; our own "not sent" and "interrupted" texts) or `connection`, and
 * loses the socket's message it kept.
 */
export function classifiedAttempt<T extends StoredCallbackAttempt>(attempt: T): T & { errorClass: CallbackErrorClass | null } {
  if (attempt.errorClass !== undefined) return { ...attempt, errorClass: attempt.errorClass };
  const errorClass = legacyClass(attempt);
  const error = errorClass === null ? null : errorClass === 'not-sent' ? attempt.error : CALLBACK_ERROR_DESCRIPTIONS[errorClass];
  return { ...attempt, errorClass, error };
}

function legacyClass({ httpStatus, error }: StoredCallbackAttempt): CallbackErrorClass | null {
  if (httpStatus !== null) return httpStatus >= 200 && httpStatus < 300 ? null : 'status';
  if (error === null) return null;
  if (error.startsWith('not sent')) return 'not-sent';
  if (error.startsWith('interrupted')) return 'interrupted';
  return 'connection';
}
