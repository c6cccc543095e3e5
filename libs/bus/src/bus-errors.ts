/** The responder did not answer within the request's timeout. */
export class BusTimeoutError extends Error {
  constructor(readonly topic: string, readonly timeoutMs: number) {
    super(`no reply on ${topic} within ${timeoutMs} ms`);
    this.name = 'BusTimeoutError';
  }
}

/** The responder answered with a failure. `code` and `status` come from the responder. */
export class BusRemoteError extends Error {
  constructor(
    readonly topic: string,
    readonly code: string,
    readonly status: number,
    message: string,
    /** A 429's wait in seconds, when the responder said (a `RateLimitedError`). */
    readonly retryAfterSeconds?: number,
    /** What the responder waited for in vain (`unanswered.ts`): a service it asked, a consumer group. */
    readonly unanswered?: readonly string[],
  ) {
    super(message);
    this.name = 'BusRemoteError';
  }
}

/** The broker or event log could not take the message: nothing was accepted. */
export class BusUnavailableError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'BusUnavailableError';
  }
}

/**
 * The broker refused the message for what it is (too large, a record it will not store), not
 * for its own state: sending it again gets the same answer, so a writer behind the request sets
 * it aside after its attempts (ADR-0016) instead of retrying forever. Nothing was accepted.
 */
export class BusMessageRefusedError extends Error {
  constructor(
    readonly topic: string,
    /** The broker's reason, e.g. Kafka's `MESSAGE_TOO_LARGE`. */
    readonly reason: string,
    override readonly cause?: unknown,
  ) {
    super(`the broker refused the message on ${topic}: ${reason}`);
    this.name = 'BusMessageRefusedError';
  }
}
