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
