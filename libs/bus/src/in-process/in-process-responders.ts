import type { MessageEnvelope, RpcReply } from '@ringfence/contracts';
import { BusTimeoutError, BusUnavailableError } from '../bus-errors';
import type { BusLogger } from '../bus-logger';
import type { ReadDependency, RequestOptions, RespondOptions, RpcContext } from '../message-bus';
import { RequestAbandonment } from '../request-abandonment';
import { ABANDONED_REQUEST, answerRequest, remoteErrorFrom } from '../rpc-failure';
import type { TenantReadBarrier } from './tenant-read-barrier';

type AnyRpcHandler = (message: MessageEnvelope<unknown>, context: RpcContext) => Promise<unknown>;

interface Responder {
  handler: AnyRpcHandler;
  consistentWith: readonly ReadDependency[];
}

interface PendingRequest {
  topic: string;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Request-reply in one process: a request calls its topic's registered handler directly, with
 * a timer for the timeout and, for a consistent responder, after the read barrier. No
 * serialisation, so a caller must not mutate a message it sent nor a handler the message it got.
 */
export class InProcessResponders {
  private readonly responders = new Map<string, Responder>();
  private readonly pending = new Set<PendingRequest>();
  private readonly running = new Set<Promise<RpcReply<unknown>>>();

  constructor(
    private readonly readBarrier: TenantReadBarrier,
    private readonly logger: BusLogger,
  ) {}

  /** Requests waiting for their handler. */
  get inFlight(): number {
    return this.pending.size;
  }

  handle(topic: string, options: RespondOptions, handler: AnyRpcHandler): void {
    if (this.responders.has(topic)) throw new Error(`${topic} already has a responder`);
    this.responders.set(topic, { handler, consistentWith: options.consistentWith ?? [] });
  }

  request(topic: string, message: MessageEnvelope<unknown>, options: RequestOptions): Promise<unknown> {
    const responder = this.responders.get(topic);
    if (responder === undefined) {
      // In one process a missing responder is a wiring mistake; waiting for the timeout hides it.
      return Promise.reject(new BusUnavailableError(`no module in this process answers ${topic}`));
    }
    // Taken now: the writes answered before this request, not those that race with it.
    const caughtUp = this.readBarrier.caughtUp(responder.consistentWith, message);
    return new Promise<unknown>((resolve, reject) => {
      // The responder's signal: aborted once nobody waits for the answer, at the timeout or when the requester aborts.
      const abandonment = new RequestAbandonment();
      const requesterAborted = () => abandonment.abandon();
      options.signal?.addEventListener('abort', requesterAborted, { once: true });
      if (options.signal?.aborted === true) abandonment.abandon();
      const entry: PendingRequest = {
        topic,
        reject,
        timer: setTimeout(() => {
          this.pending.delete(entry);
          abandonment.abandon();
          reject(new BusTimeoutError(topic, options.timeoutMs));
        }, options.timeoutMs),
      };
      this.pending.add(entry);
      const answer = () => answerRequest(topic, responder.handler, message, this.logger, abandonment);
      const answering =
        caughtUp === undefined
          ? answer()
          : caughtUp.then((): Promise<RpcReply<unknown>> | RpcReply<unknown> =>
              // A request that timed out while it waited must leave no trace: its handler never runs.
              this.pending.has(entry) ? answer() : { ok: false, error: ABANDONED_REQUEST },
            );
      this.running.add(answering);
      void answering.then((reply) => {
        this.running.delete(answering);
        clearTimeout(entry.timer);
        options.signal?.removeEventListener('abort', requesterAborted);
        // Gone when the request already timed out or the bus stopped: the answer is dropped.
        if (!this.pending.delete(entry)) return;
        if (reply.ok) resolve(reply.value);
        else reject(remoteErrorFrom(topic, reply.error));
      });
    });
  }

  /** The bus is stopping: every request still waiting fails at once. */
  rejectPending(): void {
    for (const entry of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new BusUnavailableError(`the bus stopped before ${entry.topic} answered`));
    }
    this.pending.clear();
  }

  /** The handlers still running (their answers are dropped once the bus stopped). */
  runningHandlers(): Array<Promise<RpcReply<unknown>>> {
    return [...this.running];
  }
}
