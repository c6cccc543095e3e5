import { getHeapStatistics } from 'node:v8';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from '@ringfence/platform';

/** How often the event-loop delay and the heap are sampled. */
const SAMPLE_INTERVAL_MS = 200;

/** Past this share of V8's heap limit new requests are refused, so the process never runs out of memory. */
const MAX_HEAP_SHARE = 0.85;

/** Seconds a refused client is told to wait (`Retry-After`). */
const RETRY_AFTER_SECONDS = 1;

/** Operations endpoints keep answering under load: probes must see the truth, not a 503. */
const OPS_PATHS = /^\/(health|metrics|docs)(\/|$|\?)/;

/**
 * Backpressure for the API, in two parts, both answering 503 with `Retry-After: 1` in the error
 * envelope from an `onRequest` hook, before the body is read or anything is accepted (decisions
 * §1: a 503 means nothing was kept). Requests already admitted run to their end within their
 * budgets (a checkpoint past its budget answers degraded). The operations endpoints are never
 * refused: probes must see the truth.
 *
 * - **In-flight cap** (`maxInFlight`, 0 turns it off): past capacity, work queues inside the
 *   process (the event-log appends, the embedded database), where nothing bounds it; latency then
 *   grows with every connection a client opens (p99 of 7–8 s at 500 connections). With at most
 *   this many API requests in the process, latency is bounded by the cap over the throughput.
 * - **Event loop and heap** (`@fastify/under-pressure`, sampled every 200 ms): while the loop's
 *   mean delay is past `maxEventLoopDelayMs` (0 turns it off) or the heap past 85 % of V8's
 *   limit, new requests are refused, so the process never runs out of memory.
 */
export function registerLoadShedding(fastify: FastifyInstance, limits: LoadLimits, sampleIntervalMs = SAMPLE_INTERVAL_MS): void {
  const refuse = (request: FastifyRequest, reply: FastifyReply, cause: string) =>
    reply
      .status(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .type('application/json; charset=utf-8')
      .send(errorEnvelope(503, `the service is over capacity (${cause}); nothing was accepted; retry after ${RETRY_AFTER_SECONDS} s`, String(request.id)));

  if (limits.maxInFlight > 0) {
    let inFlight = 0;
    fastify.addHook('onRequest', async (request, reply) => {
      if (OPS_PATHS.test(request.url)) return;
      if (inFlight >= limits.maxInFlight) {
        await refuse(request, reply, `${limits.maxInFlight} requests in progress`);
        return;
      }
      inFlight += 1;
      // 'close' follows the end of the response, or a connection closed before it: once each.
      reply.raw.once('close', () => (inFlight -= 1));
    });
  }

  const options: FastifyUnderPressureOptions = {
    sampleInterval: sampleIntervalMs,
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxHeapUsedBytes: Math.floor(getHeapStatistics().heap_size_limit * MAX_HEAP_SHARE),
    retryAfter: RETRY_AFTER_SECONDS,
    pressureHandler: (request, reply, type) => {
      // Not answering here lets the request through (the plugin's documented behaviour).
      if (OPS_PATHS.test(request.url)) return;
      // The sampled delay is Infinity when the loop was held for a whole interval: name the limit.
      void refuse(request, reply, type === underPressure.TYPE_EVENT_LOOP_DELAY ? `an event-loop delay over ${limits.maxEventLoopDelayMs} ms` : 'its memory');
    },
  };
  void fastify.register(underPressure, options);
}

export interface LoadLimits {
  /** API requests in the process at once; 0 for no cap. */
  maxInFlight: number;
  /** Mean event-loop delay past which new requests are refused; 0 to check the heap only. */
  maxEventLoopDelayMs: number;
}
