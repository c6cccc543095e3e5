import { getHeapStatistics } from 'node:v8';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from '@ringfence/platform';
import { clientAddressKey } from './client-address';
import { InFlightBudget, PerKeyInFlightBudget, type Release } from './in-flight-budget';

/** How often the event-loop delay and the heap are sampled. */
const SAMPLE_INTERVAL_MS = 200;

/** Past this share of V8's heap limit new requests are refused, so the process never runs out of memory. */
const MAX_HEAP_SHARE = 0.85;

/** Seconds a refused client is told to wait (`Retry-After`). */
const RETRY_AFTER_SECONDS = 1;

/** Operations endpoints keep answering under load: probes must see the truth, not a 503. */
const OPS_PATHS = /^\/(health|metrics|docs)(\/|$|\?)/;

/** Whether a request carries a credential some route accepts (`RequestCredentials.isAuthenticated`). */
export type IsAuthenticated = (request: FastifyRequest) => Promise<boolean>;

/**
 * Backpressure for the API, in two parts, both answering 503 with `Retry-After: 1` in the error
 * envelope from an `onRequest` hook, before the body is read or anything is accepted (ADR-0001:
 * a 503 means nothing was kept). Requests already admitted run to their end within their
 * budgets (a checkpoint past its budget answers degraded). The operations endpoints are never
 * refused: probes must see the truth.
 *
 * - **In-flight caps**, after the request's credential is read (its headers are all in; its body
 *   is not read yet). Past capacity, work queues inside the process (the event-log appends, the
 *   embedded database), where nothing bounds it; latency then grows with every connection a
 *   client opens (p99 of 7–8 s at 500 connections). With at most `maxInFlight` authenticated API
 *   requests in the process, latency is bounded by the cap over the throughput. Requests without
 *   a valid credential draw on a budget of their own (`maxUnauthenticatedInFlight`), and one
 *   client address on its own share of it (`maxUnauthenticatedInFlightPerAddress`, 429 past it),
 *   so keyless clients, however slow or many, never take the authenticated requests' places
 *   (ADR-0016). 0 turns a cap off.
 * - **Event loop and heap** (`@fastify/under-pressure`, sampled every 200 ms): while the loop's
 *   mean delay is past `maxEventLoopDelayMs` (0 turns it off) or the heap past 85 % of V8's
 *   limit, new requests are refused, so the process never runs out of memory.
 */
export function registerLoadShedding(fastify: FastifyInstance, limits: LoadLimits, isAuthenticated: IsAuthenticated, sampleIntervalMs = SAMPLE_INTERVAL_MS): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, status: 429 | 503, message: string) => {
    // A body still arriving is never read, so its connection cannot carry another request:
    // closing it frees the socket now rather than when a slow client gives up.
    if (!request.raw.complete) void reply.header('connection', 'close');
    return reply
      .status(status)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .type('application/json; charset=utf-8')
      .send(errorEnvelope(status, `${message}; nothing was accepted; retry after ${RETRY_AFTER_SECONDS} s`, String(request.id)));
  };
  const refuse = (request: FastifyRequest, reply: FastifyReply, cause: string) => answer(request, reply, 503, `the service is over capacity (${cause})`);

  if (limits.maxInFlight > 0 || limits.maxUnauthenticatedInFlight > 0) {
    const admit = inFlightAdmission(limits);
    fastify.addHook('onRequest', async (request, reply) => {
      if (OPS_PATHS.test(request.url)) return;
      // Listening before the credential is read: a client that leaves meanwhile takes no place,
      // and 'close' (the end of the response, or a connection closed before it) comes once.
      let release: Release | undefined;
      let closed = false;
      reply.raw.once('close', () => {
        closed = true;
        release?.();
      });
      const authenticated = await isAuthenticated(request);
      if (closed) return;
      const admission = admit(authenticated, clientAddressKey(request.ip));
      if (typeof admission === 'function') release = admission;
      else if (admission.status === 503) await refuse(request, reply, admission.cause);
      else await answer(request, reply, admission.status, admission.cause);
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

type Admission = Release | { status: 429 | 503; cause: string };

/** The in-flight budgets: a request's place, or why it has none. */
function inFlightAdmission(limits: LoadLimits): (authenticated: boolean, addressKey: string) => Admission {
  const authenticated = new InFlightBudget(limits.maxInFlight);
  const unauthenticated = new InFlightBudget(limits.maxUnauthenticatedInFlight);
  const perAddress = new PerKeyInFlightBudget(limits.maxUnauthenticatedInFlight > 0 ? limits.maxUnauthenticatedInFlightPerAddress : Number.POSITIVE_INFINITY);
  return (isAuthenticated, addressKey) => {
    if (isAuthenticated) return authenticated.tryAdmit() ?? { status: 503, cause: `${limits.maxInFlight} requests in progress` };
    const addressPlace = perAddress.tryAdmit(addressKey);
    if (addressPlace === null) {
      return { status: 429, cause: `this address has ${limits.maxUnauthenticatedInFlightPerAddress} requests without a valid API key in progress, its share` };
    }
    const place = unauthenticated.tryAdmit();
    if (place === null) {
      addressPlace();
      return { status: 503, cause: `${limits.maxUnauthenticatedInFlight} requests without a valid API key in progress` };
    }
    return () => {
      place();
      addressPlace();
    };
  };
}

export interface LoadLimits {
  /** API requests with a valid credential in the process at once; 0 for no cap. */
  maxInFlight: number;
  /** API requests without one in the process at once; 0 for no cap (and no per-address share). */
  maxUnauthenticatedInFlight: number;
  /** One client address's share of `maxUnauthenticatedInFlight`. */
  maxUnauthenticatedInFlightPerAddress: number;
  /** Mean event-loop delay past which new requests are refused; 0 to check the heap only. */
  maxEventLoopDelayMs: number;
}
