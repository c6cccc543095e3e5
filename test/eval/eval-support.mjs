// What the evaluations share (npm run eval:model, eval:model:marketplace): HTTPS calls to the
// server under test, polling what is asynchronous by design, and small readers and writers of
// their inputs and outputs (the traffic split, the exported decisions).
import { closeSync, createReadStream, createWriteStream, openSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

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

/** A file's lines (gunzipped when `gunzip`), read as a stream. */
export function fileLines(file, { gunzip = false } = {}) {
  const input = createReadStream(file);
  return createInterface({ input: gunzip ? input.pipe(createGunzip()) : input });
}

/**
 * What `exportTo(fd)` writes (a feed export, gigabytes for a run's decisions) into `file`, read
 * back line by line (blank lines skipped); the file is removed once read.
 */
export async function* exportedLines(file, exportTo) {
  const out = openSync(file, 'w');
  try {
    exportTo(out);
  } finally {
    closeSync(out);
  }
  for await (const line of fileLines(file)) if (line.length > 0) yield line;
  rmSync(file);
}

/** Writes each traffic line to the part `partOf(time)` names (-1: none); the lines written to each. */
export async function splitTraffic(lines, parts, partOf) {
  const outputs = parts.map((part) => createWriteStream(part));
  const counts = parts.map(() => 0);
  for await (const line of lines) {
    if (!line) continue;
    const part = partOf(JSON.parse(line).time);
    if (part < 0) continue;
    counts[part] += 1;
    if (!outputs[part].write(`${line}\n`)) await new Promise((resolve) => outputs[part].once('drain', resolve));
  }
  await Promise.all(outputs.map((output) => new Promise((resolve) => output.end(resolve))));
  return counts;
}

/**
 * The checkpoint's exported decision events, oldest first, one per transaction (its first
 * decision): the features it recorded (completed with their zeros by `featuresOf`), the model
 * that scored it and its score, its customer, and whether `isFraud(transactionId)`.
 */
export async function readDecisions(lines, { checkpoint, featuresOf, isFraud }) {
  const byTransaction = new Map();
  for await (const line of lines) {
    const event = JSON.parse(line).payload;
    if (event.ruleCheckpoint !== checkpoint || event.features === undefined) continue;
    const transactionId = event.recommendation?.transactionId;
    if (transactionId === undefined || byTransaction.has(transactionId)) continue;
    byTransaction.set(transactionId, {
      transactionId,
      customerId: event.subject?.id,
      timestamp: event.timestamp,
      features: featuresOf(event.features),
      modelScore: event.features.modelScore,
      modelVersion: event.features.modelVersion,
      fraud: isFraud(transactionId),
    });
  }
  return [...byTransaction.values()].sort((left, right) => left.timestamp - right.timestamp);
}
