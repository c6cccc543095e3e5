import { existsSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { issuePublishableKey } from './publishable-key';
import { ImportStateFile, fileSize, progressBar, readTrafficFile } from './traffic-files';
import { type ApiConnection, type SendSummary, TrafficSendError, TrafficSender } from './traffic-sender';

export interface SendOptions {
  key?: string;
  publishableKey?: string;
  rate: string;
  concurrency: string;
}

/** `--key`, `--rate`, `--concurrency`: shared by `import` and `simulate --send`. */
export function addSendOptions(command: Command): Command {
  return command
    .addOption(new Option('--key <secret key>', "the account's secret API key (sk_…), sent as `Authorization: token <key>`").env('RINGFENCE_API_KEY'))
    .addOption(
      new Option(
        '--publishable-key <publishable key>',
        "the key (pk_…) the client SDK's records (/v2/client/events) are sent with; without it, one is issued for the secret key's account and data set through the admin API (--admin-key) when the first such record comes",
      ).env('RINGFENCE_PUBLISHABLE_KEY'),
    )
    .option('--rate <requests per second>', 'start at most this many requests a second (0: no limit)', '0')
    .option('--concurrency <requests>', 'requests in flight at once', '8');
}

export function senderFor(command: Command, connection: ApiConnection, options: SendOptions): TrafficSender {
  const rate = Number(options.rate);
  const concurrency = Number(options.concurrency);
  if (!options.key) command.error('the secret API key is required: pass --key or set RINGFENCE_API_KEY');
  if (!Number.isFinite(rate) || rate < 0) command.error('--rate must be a number of requests a second, 0 for no limit');
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) command.error('--concurrency must be an integer from 1 to 1024');
  const publishableKey = options.publishableKey ?? (connection.adminKey ? () => issuePublishableKey(connection, options.key as string) : undefined);
  return new TrafficSender({ ...connection, apiKey: options.key, publishableKey, ratePerSecond: rate, concurrency });
}

/** Stops sending on the first SIGINT/SIGTERM (requests in flight are awaited); a second one exits at once. */
export function interruptions(): { stopped: () => boolean; dispose: () => void } {
  let stop = false;
  const handler = () => {
    if (stop) process.exit(130);
    stop = true;
    process.stderr.write('\nringfence: stopping after the requests in flight (again to quit at once)\n');
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    stopped: () => stop,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

const SAVE_EVERY_MS = 500;

export function registerImportCommand(program: Command, connection: () => ApiConnection): void {
  addSendOptions(
    program
      .command('import <files...>')
      .description(
        'backfill JSON Lines of API requests ({"path", "query"?, "body"} per line, plain or gzip) through the public API, in file order; resumes where an interrupted run stopped',
      )
      .option('--state <file>', 'where the resume point is kept (default: <file>.import-state.json next to each input)'),
  ).action(async (files: string[], options: SendOptions & { state?: string }, command: Command) => {
    for (const file of files) if (!existsSync(file)) command.error(`no such file: ${file}`);
    const sender = senderFor(command, connection(), options);
    const signals = interruptions();
    const results: FileImportResult[] = [];
    let failed = false;
    try {
      for (const file of files) {
        const imported = await importFile(file, sender, signals, options.state ?? ImportStateFile.defaultPathFor(file));
        results.push(imported.result);
        if (imported.failed) {
          failed = true;
          break;
        }
        if (!imported.result.done) break;
      }
    } finally {
      signals.dispose();
      sender.close();
    }
    process.stdout.write(`${JSON.stringify({ files: results }, null, 2)}\n`);
    if (failed) process.exit(1);
    if (results.some((result) => !result.done)) {
      process.stderr.write('ringfence: interrupted; run the same command again to resume\n');
      process.exit(130);
    }
  });
}

type FileImportResult = { file: string; resumedFromLine: number; completedThroughLine: number; done: boolean } & Partial<SendSummary>;

/**
 * One file's import, resumed after the line its state file records, the state saved as lines are
 * answered; `failed` when a request failed for good (the state then holds the resume point).
 */
async function importFile(file: string, sender: TrafficSender, signals: ReturnType<typeof interruptions>, statePath: string): Promise<{ result: FileImportResult; failed: boolean }> {
  const state = new ImportStateFile(statePath);
  const previous = state.of(file);
  if (previous.done) {
    process.stderr.write(`ringfence: ${file} was imported completely already (${state.path}); nothing to do\n`);
    return { result: { file, resumedFromLine: previous.completedThroughLine, completedThroughLine: previous.completedThroughLine, done: true }, failed: false };
  }
  if (previous.completedThroughLine > 0) process.stderr.write(`ringfence: resuming ${file} after line ${previous.completedThroughLine}\n`);
  const bar = progressBar(`${file} {bar} {percentage}% | {rate} req/s | sent {sent} | rejected {rejected} | retried {retried}`);
  bar.start(fileSize(file), 0, { rate: 0, sent: 0, rejected: 0, retried: 0 });
  let completed = previous.completedThroughLine;
  let savedAt = Date.now();
  let bytes = 0;
  try {
    const summary = await sender.send(
      readTrafficFile(file, (read) => (bytes = read)),
      {
        shouldStop: signals.stopped,
        onAnswered: (through, progress) => {
          completed = through;
          bar.update(bytes, {
            rate: progress.requestsPerSecond,
            sent: progress.sent,
            rejected: progress.rejected.count,
            retried: progress.retries.rateLimited + progress.retries.serverErrors + progress.retries.networkErrors,
          });
          if (Date.now() - savedAt >= SAVE_EVERY_MS) {
            state.record(file, completed, false);
            savedAt = Date.now();
          }
        },
      },
      previous.completedThroughLine,
    );
    bar.update(summary.interrupted ? bytes : fileSize(file));
    bar.stop();
    const done = !summary.interrupted;
    state.record(file, completed, done);
    return { result: { file, resumedFromLine: previous.completedThroughLine, completedThroughLine: completed, done, ...summary }, failed: false };
  } catch (error) {
    bar.stop();
    if (!(error instanceof TrafficSendError)) throw error;
    state.record(file, error.completedThroughLine, false);
    process.stderr.write(`ringfence: ${error.message}; every line up to ${error.completedThroughLine} was answered; run the same command again to resume\n`);
    return { result: { file, resumedFromLine: previous.completedThroughLine, completedThroughLine: error.completedThroughLine, done: false }, failed: true };
  }
}
