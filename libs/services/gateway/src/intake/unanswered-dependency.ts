import { BusRemoteError } from '@ringfence/bus';

/** What did not answer a request the gateway sent, for the degraded warning and the outage log. */
export interface UnansweredDependency {
  /** In the warning's sentence: `scoring`, or `ingestion, which scoring waits for,`. */
  inWarning: string;
  /** In the log, one outage per value: `scoring`, or `ingestion (for scoring)`. */
  inLog: string;
}

/**
 * Names what did not answer in time: the service asked (`asked`), or, when its failed reply
 * says so (`BusRemoteError.unanswered`: a service it asked in turn, a consumer group whose state
 * it waited for), that. Without a reply (a timeout, the bus unavailable) it is the service asked.
 */
export function unansweredDependency(error: unknown, asked: string): UnansweredDependency {
  const unanswered = error instanceof BusRemoteError ? (error.unanswered ?? []) : [];
  if (unanswered.length === 0) return { inWarning: asked, inLog: asked };
  const named = unanswered.join(' and ');
  return { inWarning: `${named}, which ${asked} waits for,`, inLog: `${named} (for ${asked})` };
}
