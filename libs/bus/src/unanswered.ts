/**
 * What did not answer in time, as a failed reply names it (`RpcReply`'s `unanswered`), so the
 * gateway's degraded answer can name the service or consumer group it waited for rather than
 * only the service it asked.
 */

/** The least time a responder keeps for its reply (`replyMarginMs`). */
export const MIN_REPLY_MARGIN_MS = 50;
/** The share of the time left when a request arrives that its responder keeps for its reply. */
export const REPLY_MARGIN_SHARE = 0.2;

/**
 * The time a responder keeps, before its request's deadline, for a failure to reach the
 * requester in time: its read barrier stops waiting, and the requests its handler sends give up,
 * this long before the deadline, so the requester learns what did not answer instead of timing
 * out. A fifth of the time the request has left (100 ms of the default 500 ms budget), at least
 * 50 ms: a reply is a produce and a fetch, which take longer on a loaded host than on a quiet one.
 */
export function replyMarginMs(timeLeftMs: number): number {
  return Math.max(MIN_REPLY_MARGIN_MS, Math.round(timeLeftMs * REPLY_MARGIN_SHARE));
}

/** The service that answers a request topic (`ringfence.rpc.<service>.<request>.v1`), or the topic. */
export function responderOf(topic: string): string {
  return /^ringfence\.rpc\.([^.]+)\./.exec(topic)?.[1] ?? topic;
}

/** A consumer group whose state a responder waited for, as a failed reply names it. */
export function consumerGroupName(group: string): string {
  return `the consumer group ${group}`;
}
