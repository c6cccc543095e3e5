import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { exponentialBackoffMs } from '@ringfence/platform';
import { build as buildHistogram } from 'hdr-histogram-js';
import { CLIENT_PATH_PREFIX, ClientEventsOrder } from './client-events-order';

/** One request of a traffic file: `{path, query?, time?, body}` (libs/simulator's TrafficRecord). */
export interface TrafficRequest {
  path: string;
  query?: Record<string, string>;
  body: unknown;
}

/** A request with its line number in the input (1-based), or a line that is not a request. */
export type TrafficLine = { line: number; request: TrafficRequest } | { line: number; invalid: string };

export interface TrafficSenderOptions {
  baseUrl: string;
  /** The account's secret API key, sent as `Authorization: token <key>`. */
  apiKey: string;
  /** The publishable key the client SDK endpoints (`/v2/client/…`) take, or how to get one when first needed; absent, such a record fails the run. */
  publishableKey?: string | (() => Promise<string>);
  caFile?: string;
  insecure?: boolean;
  /** Requests in flight at once. */
  concurrency: number;
  /** Requests started per second at most; 0 for no limit. */
  ratePerSecond: number;
  timeoutMs?: number;
  /** Attempts of one request that meets 5xx answers or network errors before the run gives up (429 is retried without limit). */
  maxAttempts?: number;
  /** First backoff after a 5xx or a network error (doubles each time, at most 30 s). */
  backoffMs?: number;
}

export interface SendSummary {
  sent: number;
  /** Final answers by HTTP status. */
  answered: Record<string, number>;
  rejected: { count: number; first: Array<{ line: number; status: number; message: string }> };
  actions: { ALLOW: number; REVIEW: number; PREVENT: number };
  latencyMs: { p50: number; p99: number; max: number };
  retries: { rateLimited: number; serverErrors: number; networkErrors: number };
  elapsedSeconds: number;
  requestsPerSecond: number;
  interrupted: boolean;
}

export interface SendHooks {
  /** Called after each answer with the line up to which every line is answered (the resume point). */
  onAnswered?: (completedThroughLine: number, summary: SendSummary) => void;
  /** Checked before each request is started: true stops the run (requests in flight are awaited). */
  shouldStop?: () => boolean;
}

export class TrafficSendError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly completedThroughLine: number,
  ) {
    super(message);
    this.name = 'TrafficSendError';
  }
}

const FIRST_REJECTIONS_KEPT = 10;
const MAX_BACKOFF_MS = 30_000;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Tracks the line up to which every line was answered, while up to `concurrency` lines are in
 * flight out of order: the resume point of an interrupted import.
 */
export class CompletionWatermark {
  private readonly pending = new Set<number>();
  private highestStarted: number;

  constructor(completedThroughLine = 0) {
    this.highestStarted = completedThroughLine;
  }

  start(line: number): void {
    this.pending.add(line);
    this.highestStarted = Math.max(this.highestStarted, line);
  }

  finish(line: number): void {
    this.pending.delete(line);
  }

  /** Lines not started are not in flight: a skipped (blank) line counts as done once a later one starts. */
  get completedThroughLine(): number {
    let lowest = Number.POSITIVE_INFINITY;
    for (const line of this.pending) lowest = Math.min(lowest, line);
    return lowest === Number.POSITIVE_INFINITY ? this.highestStarted : lowest - 1;
  }
}

/** The running summary of one `send`: answers by status, rejections (the lowest lines), actions, latency. */
class SendTally {
  readonly latency = buildHistogram({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
  readonly summary: SendSummary = {
    sent: 0,
    answered: {},
    rejected: { count: 0, first: [] },
    actions: { ALLOW: 0, REVIEW: 0, PREVENT: 0 },
    latencyMs: { p50: 0, p99: 0, max: 0 },
    retries: { rateLimited: 0, serverErrors: 0, networkErrors: 0 },
    elapsedSeconds: 0,
    requestsPerSecond: 0,
    interrupted: false,
  };
  private readonly started = Date.now();

  /** A final answer: counted by status, and as a rejection (4xx, 5xx) or by the decision's action. */
  answered(line: number, answer: Answer): void {
    const { summary } = this;
    const status = String(answer.status);
    summary.answered[status] = (summary.answered[status] ?? 0) + 1;
    if (answer.status >= 400) {
      const message = (answer.body as { message?: unknown } | null)?.message;
      this.reject(line, answer.status, typeof message === 'string' ? message : `HTTP ${answer.status}`);
    } else {
      const action = (answer.body as { data?: { action?: unknown } } | null)?.data?.action;
      if (action === 'ALLOW' || action === 'REVIEW' || action === 'PREVENT') summary.actions[action] += 1;
    }
  }

  reject(line: number, status: number, message: string): void {
    this.summary.rejected.count += 1;
    // The lowest line numbers, whatever order the answers came in.
    const first = this.summary.rejected.first;
    if (first.length < FIRST_REJECTIONS_KEPT || line < (first.at(-1)?.line ?? Number.POSITIVE_INFINITY)) {
      first.push({ line, status, message });
      first.sort((left, right) => left.line - right.line);
      if (first.length > FIRST_REJECTIONS_KEPT) first.pop();
    }
  }

  /** The summary with its elapsed time, rate and latency brought up to date. */
  refresh(): SendSummary {
    const { summary, latency } = this;
    summary.elapsedSeconds = Math.round((Date.now() - this.started) / 10) / 100;
    summary.requestsPerSecond = summary.elapsedSeconds > 0 ? Math.round((summary.sent / summary.elapsedSeconds) * 10) / 10 : 0;
    if (latency.totalCount > 0) {
      summary.latencyMs = {
        p50: latency.getValueAtPercentile(50) / 1000,
        p99: latency.getValueAtPercentile(99) / 1000,
        max: latency.maxValue / 1000,
      };
    }
    return summary;
  }
}

/** One `send` under way: its tally, the resume watermark, the requests in flight, the first failure, the pacing. */
class SendRun {
  readonly tally = new SendTally();
  failure: TrafficSendError | undefined;
  private readonly watermark: CompletionWatermark;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly devices = new ClientEventsOrder();
  private readonly interval: number;
  private nextStart = Date.now();

  constructor(
    private readonly options: TrafficSenderOptions,
    private readonly hooks: SendHooks,
    completedThroughLine: number,
    private readonly deliver: (request: TrafficRequest, tally: SendTally) => Promise<Answer>,
  ) {
    this.watermark = new CompletionWatermark(completedThroughLine);
    this.interval = options.ratePerSecond > 0 ? 1000 / options.ratePerSecond : 0;
  }

  /** A line that is not a request: done at once, counted as rejected. */
  refuse(line: number, message: string): void {
    this.watermark.start(line);
    this.watermark.finish(line);
    this.tally.reject(line, 0, message);
  }

  async waitForRoom(): Promise<void> {
    while (this.inFlight.size >= this.options.concurrency) await Promise.race(this.inFlight);
  }

  /** Waits for the request's turn under `ratePerSecond`. */
  async pace(): Promise<void> {
    if (this.interval <= 0) return;
    const wait = this.nextStart - Date.now();
    if (wait > 0) await sleep(wait);
    this.nextStart = Math.max(this.nextStart + this.interval, Date.now() - 1000);
  }

  start(line: number, request: TrafficRequest): void {
    const { tally, watermark } = this;
    watermark.start(line);
    tally.summary.sent += 1;
    const task = this.devices
      .after(request, () => this.deliver(request, tally))
      .then((answer) => {
        tally.answered(line, answer);
        watermark.finish(line);
        this.hooks.onAnswered?.(watermark.completedThroughLine, tally.refresh());
      })
      .catch((error: unknown) => {
        this.failure ??= new TrafficSendError(`line ${line}: ${error instanceof Error ? error.message : String(error)}`, line, watermark.completedThroughLine);
      })
      .finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** The summary; a TrafficSendError with the resume point when a request failed for good. */
  result(): SendSummary {
    if (this.failure) throw new TrafficSendError(this.failure.message, this.failure.line, this.watermark.completedThroughLine);
    return this.tally.refresh();
  }
}

/**
 * Sends traffic (simulated or imported) through the public API, in the order given, with at
 * most `concurrency` requests in flight and at most `ratePerSecond` started per second. 429 (and
 * 503) answers wait for `Retry-After` and are retried without limit; other 5xx answers and
 * network errors are retried with exponential backoff up to `maxAttempts`, after which the run
 * stops with a TrafficSendError (nothing is dropped silently). Other 4xx answers are final and
 * counted as rejected.
 */
export class TrafficSender {
  private readonly agent: HttpAgent | HttpsAgent;
  private readonly ca?: Buffer;
  private readonly url: URL;

  constructor(private readonly options: TrafficSenderOptions) {
    this.url = new URL(options.baseUrl);
    this.ca = options.caFile ? readFileSync(options.caFile) : undefined;
    const agentOptions = { keepAlive: true, maxSockets: options.concurrency };
    this.agent = this.url.protocol === 'https:' ? new HttpsAgent({ ...agentOptions, ca: this.ca, rejectUnauthorized: !options.insecure }) : new HttpAgent(agentOptions);
  }

  close(): void {
    this.agent.destroy();
  }

  async send(lines: AsyncIterable<TrafficLine> | Iterable<TrafficLine>, hooks: SendHooks = {}, completedThroughLine = 0): Promise<SendSummary> {
    const run = new SendRun(this.options, hooks, completedThroughLine, (request, tally) => this.deliver(request, tally.summary, tally.latency));
    try {
      for await (const item of lines) {
        if (run.failure) break;
        if (item.line <= completedThroughLine) continue;
        if (hooks.shouldStop?.()) {
          run.tally.summary.interrupted = true;
          break;
        }
        if ('invalid' in item) {
          run.refuse(item.line, item.invalid);
          continue;
        }
        await run.waitForRoom();
        if (run.failure) break;
        await run.pace();
        run.start(item.line, item.request);
      }
    } finally {
      await run.settled();
    }
    return run.result();
  }

  private async deliver(request: TrafficRequest, summary: SendSummary, latency: ReturnType<typeof buildHistogram>): Promise<Answer> {
    const maxAttempts = this.options.maxAttempts ?? 8;
    const backoffMs = this.options.backoffMs ?? 250;
    const backoff = { initialDelayMs: backoffMs, maxDelayMs: MAX_BACKOFF_MS, jitter: 0 };
    let failures = 0;
    const key = await this.keyFor(request);
    for (;;) {
      const startedAt = process.hrtime.bigint();
      let answer: Answer;
      try {
        answer = await this.post(request, key);
      } catch (error) {
        failures += 1;
        summary.retries.networkErrors += 1;
        if (failures >= maxAttempts) throw error;
        await sleep(exponentialBackoffMs(failures, backoff));
        continue;
      }
      const retryAfter = Number(answer.headers['retry-after']);
      if (answer.status === 429 || (answer.status === 503 && Number.isFinite(retryAfter))) {
        // Throttled: the API kept its place for us; wait as long as it asks and try again, however often.
        summary.retries.rateLimited += 1;
        await sleep(Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : backoffMs);
        continue;
      }
      if (answer.status >= 500) {
        failures += 1;
        summary.retries.serverErrors += 1;
        if (failures >= maxAttempts) throw new Error(`HTTP ${answer.status} after ${failures} attempts`);
        await sleep(exponentialBackoffMs(failures, backoff));
        continue;
      }
      latency.recordValue(Math.max(1, Number((process.hrtime.bigint() - startedAt) / 1000n)));
      return answer;
    }
  }

  private publishable: Promise<string> | undefined;
  /** The key a request is sent with: the publishable one on the client SDK endpoints (got once, then kept). */
  private keyFor(request: TrafficRequest): Promise<string> {
    if (!request.path.startsWith(CLIENT_PATH_PREFIX)) return Promise.resolve(this.options.apiKey);
    const { publishableKey } = this.options;
    if (publishableKey === undefined) return Promise.reject(new Error(`${request.path} needs a publishable key (--publishable-key, or --admin-key to issue one)`));
    this.publishable ??= typeof publishableKey === 'string' ? Promise.resolve(publishableKey) : publishableKey();
    return this.publishable;
  }

  private post(request: TrafficRequest, key: string): Promise<Answer> {
    const target = new URL(request.path, this.url);
    for (const [name, value] of Object.entries(request.query ?? {})) target.searchParams.set(name, value);
    const payload = JSON.stringify(request.body);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        target,
        {
          method: 'POST',
          agent: this.agent,
          timeout: this.options.timeoutMs ?? 30_000,
          headers: {
            authorization: `token ${key}`,
            accept: 'application/json',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = null;
            try {
              body = text ? JSON.parse(text) : null;
            } catch {
              body = { message: text.slice(0, 200) };
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer from ${target.origin} in time`)));
      req.on('error', reject);
      req.end(payload);
    });
  }
}

/** Parses one line of a traffic file; blank lines give undefined. */
export function parseTrafficLine(line: number, text: string): TrafficLine | undefined {
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { line, invalid: 'not JSON' };
  }
  const record = parsed as { path?: unknown; query?: unknown; body?: unknown };
  if (typeof record !== 'object' || record === null || typeof record.path !== 'string' || !record.path.startsWith('/')) {
    return { line, invalid: 'no "path" starting with /' };
  }
  if (typeof record.body !== 'object' || record.body === null) return { line, invalid: 'no "body" object' };
  const query =
    typeof record.query === 'object' && record.query !== null
      ? Object.fromEntries(Object.entries(record.query as Record<string, unknown>).map(([name, value]) => [name, String(value)]))
      : undefined;
  return { line, request: { path: record.path, ...(query ? { query } : {}), body: record.body } };
}

/** The HTTPS options every command shares (the program's `--url`, `--ca`, `--insecure`). */
export interface ApiConnection {
  baseUrl: string;
  /** The operator's admin token, when the program has one (issues a publishable key for client events). */
  adminKey?: string;
  caFile?: string;
  insecure: boolean;
}
