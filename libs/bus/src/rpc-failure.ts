import type { MessageEnvelope, RpcReply } from '@ringfence/contracts';
import { INTERNAL_ERROR_MESSAGE } from '@ringfence/platform';
import { BusRemoteError, BusTimeoutError, BusUnavailableError } from './bus-errors';
import type { BusLogger } from './bus-logger';
import type { RpcContext } from './message-bus';
import { responderOf } from './unanswered';

/** The error half of an `RpcReply`: what a requester learns about a failed request. */
export type RpcFailure = Extract<RpcReply<unknown>, { ok: false }>['error'];

export interface MappedFailure {
  failure: RpcFailure;
  /** False for errors nobody meant to throw: the responder logs those with their stack. */
  expected: boolean;
}

interface CodedError {
  code: string;
  status: number;
  message: string;
  retryAfterSeconds?: unknown;
  unanswered?: unknown;
}

function isCodedError(error: unknown): error is CodedError {
  if (typeof error !== 'object' || error === null) return false;
  const { code, status, message } = error as Partial<Record<keyof CodedError, unknown>>;
  return (
    typeof code === 'string' &&
    code.length > 0 &&
    typeof status === 'number' &&
    Number.isInteger(status) &&
    status >= 400 &&
    status <= 599 &&
    typeof message === 'string'
  );
}

/**
 * Maps what a responder threw to the failure both adapters send back, so a requester sees the
 * same `BusRemoteError` in both modes. Errors that carry an HTTP-like `code` and `status` (the
 * platform's `AppError`, or a `BusRemoteError` from a nested request) keep them; their message
 * travels only below 500, because a server-side message may hold internal detail. A dependency
 * the responder could not reach becomes a 503, so the gateway can tell callers to retry.
 * Anything else is an unexpected 500 with the generic message.
 */
export function toRpcFailure(error: unknown): MappedFailure {
  if (isCodedError(error)) {
    const message = error.status < 500 ? error.message : INTERNAL_ERROR_MESSAGE;
    // A 429's wait travels with it (a RateLimitedError's, or a nested request's), so the gateway answers `Retry-After`.
    const { retryAfterSeconds } = error;
    const wait = error.status === 429 && Number.isInteger(retryAfterSeconds) && (retryAfterSeconds as number) > 0 ? { retryAfterSeconds: retryAfterSeconds as number } : {};
    // What a nested request waited for in vain travels on: the gateway names it.
    const unanswered = Array.isArray(error.unanswered) && error.unanswered.length > 0 ? { unanswered: error.unanswered.map(String) } : {};
    return { failure: { code: error.code, status: error.status, message, ...wait, ...unanswered }, expected: error.status < 500 };
  }
  if (error instanceof BusTimeoutError || error instanceof BusUnavailableError) {
    // A request that timed out names the service that did not answer it.
    const unanswered = error instanceof BusTimeoutError ? { unanswered: [responderOf(error.topic)] } : {};
    return {
      failure: { code: 'DEPENDENCY_UNAVAILABLE', status: 503, message: 'a dependency of the responder is unavailable; retry', ...unanswered },
      expected: true,
    };
  }
  return { failure: { code: 'INTERNAL', status: 500, message: INTERNAL_ERROR_MESSAGE }, expected: false };
}

export function remoteErrorFrom(topic: string, failure: RpcFailure): BusRemoteError {
  return new BusRemoteError(topic, failure.code, failure.status, failure.message, failure.retryAfterSeconds, failure.unanswered);
}

/** The answer to a request whose handler stopped because nobody waited for it any more. */
export const ABANDONED_REQUEST: RpcFailure = Object.freeze({ code: 'TIMEOUT', status: 504, message: 'abandoned' });

/**
 * Runs a responder and turns its outcome into the reply both adapters send; never rejects.
 * Unexpected errors are logged here, with the request's traceId, and answered generically.
 * A handler that stopped with its signal's reason (the request was abandoned) is answered as
 * such and not logged: it did what it was asked to.
 */
export async function answerRequest(
  topic: string,
  handler: (message: MessageEnvelope<unknown>, context: RpcContext) => Promise<unknown>,
  message: MessageEnvelope<unknown>,
  logger: BusLogger,
  context: RpcContext,
): Promise<RpcReply<unknown>> {
  try {
    return { ok: true, value: await handler(message, context) };
  } catch (error) {
    if (context.signal.aborted && error === context.signal.reason) return { ok: false, error: ABANDONED_REQUEST };
    const { failure, expected } = toRpcFailure(error);
    if (!expected) {
      logger.error({ topic, traceId: message.traceId, eventId: message.eventId, err: error }, 'request handler failed');
    }
    return { ok: false, error: failure };
  }
}
