import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the client goes away before its answer is sent (its connection
 * closed), for a route whose work outlives a client that stopped waiting otherwise (a backtest,
 * ADR-0016). The response's `close` comes either after the answer was written or when the
 * connection ended first; only the second aborts.
 */
export function requestEndedSignal(reply: FastifyReply): AbortSignal {
  const ended = new AbortController();
  const response = reply.raw;
  if (response.socket === null || response.socket.destroyed) {
    ended.abort();
    return ended.signal;
  }
  response.once('close', () => {
    if (!response.writableFinished) ended.abort();
  });
  return ended.signal;
}

/** The route's `requestEndedSignal`, as a handler parameter. */
export const RequestEnded = createParamDecorator((_data: unknown, context: ExecutionContext): AbortSignal => requestEndedSignal(context.switchToHttp().getResponse<FastifyReply>()));
