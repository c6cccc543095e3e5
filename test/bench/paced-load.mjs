// An open-loop load at a fixed rate, for the latency an integration feels below capacity.
//
// Requests arrive as independent checkouts do: a Poisson process of `rate` arrivals a second
// (exponential gaps drawn from a seeded generator, so every run offers the same instants), each
// sent at its instant on one of `connections` keep-alive connections, whether or not earlier
// answers have come back.
//
// Not autocannon's `overallRate`: autocannon gives each connection a quota per second, which it
// sends back to back from the start of the second and then idles. At 300 requests a second over
// 20 connections that is 20 requests at once, then more as each returns, until the second's 300
// are sent: a service slower than the bare server sees its whole second's traffic in a burst at
// saturation, and the "below capacity" latency was a latency at capacity.
//
// A request's latency runs from its send, or from its arrival instant when every connection was
// busy then (it waited for the service to free one: counted, not omitted). The timers that pace
// the sends fire up to a millisecond late on a busy machine; that delay is the generator's and is
// not counted for either server.
import { Agent, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { seededRandom } from './synthetic-graph.mjs';

/** Arrival instants (ms from the start) of a Poisson process of `rate` a second over `seconds`. */
export function arrivalTimes({ rate, seconds, seed = 1 }) {
  const { random } = seededRandom(seed);
  const times = [];
  for (let at = 0; ; ) {
    at += (-Math.log(1 - random()) * 1000) / rate;
    if (at >= seconds * 1000) return times;
    times.push(at);
  }
}

/**
 * Sends `next()`'s requests ({method, path, headers, body}) at the arrival instants, over
 * `connections` connections opened first. `onAnswer(request, status, body, ms)` gets every
 * answer; `send` is how one request goes out (HTTPS to 127.0.0.1:`port` unless replaced).
 * Resolves, once every request is answered or failed, to { sent, answered, errors, waitedForConnection,
 * elapsedMs }.
 */
export async function pacedLoad({ port, rate, seconds, connections, next, onAnswer, seed = 1, send = httpsSend }) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, rejectUnauthorized: false });
  const arrivals = arrivalTimes({ rate, seconds, seed });
  const outcome = { sent: 0, answered: 0, errors: 0, waitedForConnection: 0, elapsedMs: 0 };
  let inFlight = 0;
  const pending = [];
  const dispatch = (request, arrivedAt) => {
    const waited = inFlight >= connections;
    if (waited) outcome.waitedForConnection += 1;
    const startedAt = waited ? arrivedAt : performance.now();
    inFlight += 1;
    outcome.sent += 1;
    pending.push(
      send(port, request, agent).then(
        ({ status, body }) => {
          inFlight -= 1;
          outcome.answered += 1;
          onAnswer(request, status, body, performance.now() - startedAt);
        },
        () => {
          inFlight -= 1;
          outcome.errors += 1;
        },
      ),
    );
  };
  try {
    await Promise.all(Array.from({ length: connections }, () => send(port, { method: 'GET', path: '/health/live', headers: {} }, agent)));
    const start = performance.now();
    let index = 0;
    await new Promise((resolve) => {
      const sendDue = () => {
        const now = performance.now();
        while (index < arrivals.length && start + arrivals[index] <= now) dispatch(next(), start + arrivals[index++]);
        if (index === arrivals.length) return resolve();
        setTimeout(sendDue, Math.max(0, start + arrivals[index] - performance.now()));
      };
      sendDue();
    });
    await Promise.all(pending);
    outcome.elapsedMs = performance.now() - start;
    return outcome;
  } finally {
    agent.destroy();
  }
}

/** One request over HTTPS; resolves to its status and body, rejects on a connection error. */
export function httpsSend(port, { method, path, headers, body }, agent) {
  return new Promise((resolve, reject) => {
    const sentHeaders = body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers;
    const req = httpsRequest({ host: '127.0.0.1', port, path, method, headers: sentHeaders, agent, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
