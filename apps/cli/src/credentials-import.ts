import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { type BreachLineSkip, type BreachedCredential, parseBreachLine } from '@ringfence/credentials';

/** The admin route takes at most 5,000 entries per request. */
export const MAX_BATCH_ENTRIES = 5_000;
export const DEFAULT_BATCH_ENTRIES = 1_000;
/** Under the server's default 1 MiB body limit, whatever the usernames' lengths. */
const MAX_BATCH_BYTES = 768 * 1024;

export interface ImportBatchResult {
  received: number;
  inserted: number;
}

export interface ImportProgress {
  lines: number;
  sent: number;
  inserted: number;
  skipped: number;
}

export interface ImportSummary {
  /** Lines read from the file. */
  lines: number;
  /** Pairs sent to the server. */
  sent: number;
  /** Pairs the server had not stored before. */
  inserted: number;
  /** Pairs the server had already (a re-run, or duplicates in the file). */
  alreadyStored: number;
  /** Lines not sent, by reason: `no-separator` are lines without `:`. */
  skipped: Record<BreachLineSkip, number>;
}

export interface ImportOptions {
  batchEntries?: number;
  onProgress?: (progress: ImportProgress) => void;
}

/**
 * Streams a breach corpus (`username:password` or `username:<sha256 hex>` per line) into the
 * breached-credentials store: one line at a time, plaintext passwords hashed here (they never
 * leave this process), sent in batches one after another, so memory stays flat for any file size.
 * Stopping half-way loses nothing: the server skips pairs it has, so a re-run resumes.
 */
export async function importBreachedCredentials(
  input: Readable,
  send: (entries: BreachedCredential[]) => Promise<ImportBatchResult>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const batchEntries = Math.min(options.batchEntries ?? DEFAULT_BATCH_ENTRIES, MAX_BATCH_ENTRIES);
  const summary: ImportSummary = {
    lines: 0,
    sent: 0,
    inserted: 0,
    alreadyStored: 0,
    skipped: { 'no-separator': 0, 'empty-username': 0, 'empty-password': 0, 'username-too-long': 0 },
  };
  let batch: BreachedCredential[] = [];
  let batchBytes = 0;

  const flush = async () => {
    if (batch.length === 0) return;
    const result = await send(batch);
    summary.sent += batch.length;
    summary.inserted += result.inserted;
    summary.alreadyStored += batch.length - result.inserted;
    batch = [];
    batchBytes = 0;
    options.onProgress?.({ lines: summary.lines, sent: summary.sent, inserted: summary.inserted, skipped: skippedTotal(summary) });
  };

  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    summary.lines += 1;
    const parsed = parseBreachLine(line);
    if (!parsed.ok) {
      summary.skipped[parsed.skip] += 1;
      continue;
    }
    const bytes = JSON.stringify(parsed.credential).length + 1;
    if (batch.length >= batchEntries || batchBytes + bytes > MAX_BATCH_BYTES) await flush();
    batch.push(parsed.credential);
    batchBytes += bytes;
  }
  await flush();
  return summary;
}

export function skippedTotal(summary: Pick<ImportSummary, 'skipped'>): number {
  return Object.values(summary.skipped).reduce((total, count) => total + count, 0);
}
