/** ADR-0001: the body of every non-2xx answer. */
export interface ErrorEnvelope {
  status: number;
  message: string;
  timestamp: number;
  traceId: string;
}

export function errorEnvelope(status: number, message: string, traceId: string, now = Date.now()): ErrorEnvelope {
  return { status, message, timestamp: now, traceId };
}
