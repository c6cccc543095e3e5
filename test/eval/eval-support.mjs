// What the evaluations share (npm run eval:model, eval:model:marketplace): HTTPS calls to the
// server under test, polling what is asynchronous by design, and small readers of their outputs.
import { Agent, request } from 'node:https';

/** One JSON request to the server under test; `agent` (or `ca`) trusts its self-signed certificate. */
export function call({ url, method, path, body, key, agent, ca }) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${url}${path}`, { method, agent: agent ?? new Agent({ ca }), headers: { authorization: `token ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Polls `probe` until it gives a value: only for what is asynchronous by design (a server starting, a training). */
export async function waitFor(probe, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('eval: timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Every line of an async iterable, in an array. */
export async function collect(lines) {
  const all = [];
  for await (const line of lines) all.push(line);
  return all;
}

/** Three decimals for a report; null for what could not be computed. */
export function round(value) {
  return value === null || value === undefined || Number.isNaN(value) ? null : Math.round(value * 1000) / 1000;
}
