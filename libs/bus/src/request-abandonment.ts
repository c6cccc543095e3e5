import type { RpcContext } from './message-bus';

/**
 * A responder's `RpcContext`: its signal aborts once the request is abandoned, by `abandon()` or
 * at `deadline` (epoch ms). The AbortController is made only when a handler reads the signal:
 * it costs about 2 µs, every request has a context, and few handlers ever look (a backtest does).
 */
export class RequestAbandonment implements RpcContext {
  private controller: AbortController | undefined;
  private abandoned = false;

  constructor(private readonly deadline?: number) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abandoned) this.controller.abort();
      else if (this.deadline !== undefined) setTimeout(() => this.abandon(), Math.max(0, this.deadline - Date.now())).unref();
    }
    return this.controller.signal;
  }

  /** Nobody waits for the answer any more. */
  abandon(): void {
    this.abandoned = true;
    this.controller?.abort();
  }
}
