import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process: /metrics serves it, services add their own series to it. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const httpRequestDuration = new Histogram({
  name: 'ringfence_http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 2.5],
  registers: [metricsRegistry],
});

export const busMessagesHandled = new Counter({
  name: 'ringfence_bus_messages_handled_total',
  help: 'Bus messages handled by topic and outcome',
  labelNames: ['topic', 'outcome'],
  registers: [metricsRegistry],
});

export const recommendationsGiven = new Counter({
  name: 'ringfence_recommendations_total',
  help: 'Recommendations by checkpoint, action and source',
  labelNames: ['checkpoint', 'action', 'source'],
  registers: [metricsRegistry],
});

/** Rows a writer behind the request set aside (ADR-0016): each is in `set_aside_rows`, for an operator. */
export const rowsSetAside = new Counter({
  name: 'ringfence_rows_set_aside_total',
  help: 'Rows a writer behind the request could not store and set aside after its attempts, by writer',
  labelNames: ['writer'],
  registers: [metricsRegistry],
});

/** Rows that were due to be set aside but could not be (they stay pending and are retried). */
export const setAsideFailures = new Counter({
  name: 'ringfence_set_aside_failures_total',
  help: 'Rows that could not be set aside (kept pending and retried), by writer',
  labelNames: ['writer'],
  registers: [metricsRegistry],
});
