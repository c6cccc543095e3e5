/** One POST of a callback body. */
export interface CallbackRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The attempt fails with `error` after this long without an answer. */
  timeoutMs: number;
  /** Aborted when the service stops: the attempt ends at once, recorded as interrupted. */
  signal: AbortSignal;
}

/** What an attempt got: the receiver's status, or why there was none. Never a throw. */
export interface CallbackResponse {
  httpStatus: number | null;
  error: string | null;
}

export interface CallbackSender {
  post(request: CallbackRequest): Promise<CallbackResponse>;
}

export const INTERRUPTED_ERROR = 'interrupted: the service stopped';

/** The most of an error's text an attempt records. */
const MAX_ERROR_LENGTH = 300;

/**
 * POSTs with Node's fetch (undici). Redirects are not followed: a 3xx is an answer like any
 * other non-2xx, and the body goes only to the URL the operator set. The answer's body is not
 * read (only the status counts) and is discarded, so the connection is released at once.
 */
export class FetchCallbackSender implements CallbackSender {
  async post(request: CallbackRequest): Promise<CallbackResponse> {
    const timeout = AbortSignal.timeout(request.timeoutMs);
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.any([request.signal, timeout]),
      });
      await response.body?.cancel().catch(() => undefined);
      return { httpStatus: response.status, error: null };
    } catch (error) {
      if (request.signal.aborted) return { httpStatus: null, error: INTERRUPTED_ERROR };
      if (timeout.aborted) return { httpStatus: null, error: `timed out after ${request.timeoutMs} ms` };
      return { httpStatus: null, error: describeFetchError(error) };
    }
  }
}

/**
 * fetch rejects with `TypeError: fetch failed`; the reason (ECONNREFUSED, a TLS error) is its
 * cause. Read by shape, not `instanceof`: the errors come from undici, whose realm may differ.
 */
function describeFetchError(error: unknown): string {
  const cause = hasField(error, 'cause') && hasField(error.cause, 'message') ? error.cause : error;
  const code = hasField(cause, 'code') && typeof cause.code === 'string' ? cause.code : null;
  const message = hasField(cause, 'message') && typeof cause.message === 'string' ? cause.message : String(cause);
  return (code !== null && !message.includes(code) ? `${code}: ${message}` : message).slice(0, MAX_ERROR_LENGTH);
}

function hasField<K extends string>(value: unknown, field: K): value is Record<K, unknown> {
  return typeof value === 'object' && value !== null && field in value;
}
