import type { ModelDto, ModelListDataDto, ModelListResponseDto, TrainModelAcceptedDto } from '@ringfence/contracts';
import { type Command, Option } from 'commander';
import { AdminApiError } from './admin-client';
import { PublicApiClient, type PublicApiClientOptions, PublicApiError } from './public-api-client';
import { progressBar } from './traffic-files';
import type { ApiConnection } from './traffic-sender';

/** The models commands' errors are the public API's (kept under this name for their callers). */
export const ModelsApiError = PublicApiError;
export type ModelsApiError = PublicApiError;

export type ModelsClientOptions = PublicApiClientOptions;

export interface TrainModelRequest {
  checkpoint: string;
  from?: number;
  to?: number;
}

/** The models API (ADR-0012) over HTTPS with the account's secret key. */
export class ModelsClient extends PublicApiClient {
  train(request: TrainModelRequest): Promise<TrainModelAcceptedDto> {
    return this.call('POST', '/v2/models/train', request) as Promise<TrainModelAcceptedDto>;
  }

  async list(checkpoint?: string): Promise<ModelListDataDto> {
    const query = checkpoint === undefined ? '' : `?${new URLSearchParams({ checkpoint }).toString()}`;
    return ((await this.call('GET', `/v2/models${query}`)) as ModelListResponseDto).data;
  }

  read(modelId: string): Promise<ModelDto> {
    return this.call('GET', `/v2/models/${encodeURIComponent(modelId)}`) as Promise<ModelDto>;
  }

  activate(modelId: string): Promise<ModelDto> {
    return this.call('POST', `/v2/models/${encodeURIComponent(modelId)}/activate`, {}) as Promise<ModelDto>;
  }
}

export interface FollowOptions {
  /** Time between two reads of the model. */
  intervalMs: number;
  /** Reads in a row that may meet a network error, a 429 or a 5xx before following gives up. */
  maxConsecutiveFailures?: number;
  onProgress?: (model: ModelDto) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An error worth reading the model again after: the network, throttling, or the server's trouble. */
const isTransient = (error: unknown) => !(error instanceof AdminApiError) || error.status === 429 || error.status >= 500;

/**
 * Reads the model every `intervalMs` until it is no longer training, and returns it. Training
 * runs off the request path (ADR-0012), so reading its state is the only way to know when it
 * ends. A passing failure (network, 429, 5xx) is read again; a 4xx other than 429 ends it.
 */
export async function followTraining(client: ModelsClient, modelId: string, options: FollowOptions): Promise<ModelDto> {
  const maxFailures = options.maxConsecutiveFailures ?? 10;
  let failures = 0;
  for (;;) {
    let model: ModelDto;
    try {
      model = await client.read(modelId);
      failures = 0;
    } catch (error) {
      failures += 1;
      if (!isTransient(error) || failures >= maxFailures) throw error;
      const retryAfterMs = error instanceof ModelsApiError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
      await sleep(Math.max(options.intervalMs, retryAfterMs));
      continue;
    }
    options.onProgress?.(model);
    if (model.status !== 'training') return model;
    await sleep(options.intervalMs);
  }
}

const formatCount = (count: number) => count.toLocaleString('en-GB');

/** What a training is doing, in a few words (the progress bar's text). */
export function describeProgress(model: Pick<ModelDto, 'status' | 'progress' | 'error'>): string {
  if (model.status === 'ready') return 'ready';
  if (model.status === 'failed') return `failed: ${model.error ?? 'no reason given'}`;
  const progress = model.progress;
  if (!progress) return 'waiting to start';
  switch (progress.stage) {
    case 'reading':
      return `reading ${formatCount(progress.done)} examples${progress.total === null ? '' : ` of ${formatCount(progress.total)}`}…`;
    case 'training':
      return `trees ${formatCount(progress.done)}${progress.total === null ? '' : ` of ${formatCount(progress.total)}`}`;
    case 'baseline':
      return 'fitting the logistic regression baseline';
  }
}

/** `--from` / `--to`: an ISO 8601 time or epoch milliseconds. */
export function parseTime(flag: string, text: string): number {
  const millis = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Date.parse(text);
  if (!Number.isSafeInteger(millis) || millis < 0) throw new Error(`${flag} must be an ISO 8601 time (2026-01-05T00:00:00Z) or epoch milliseconds (got ${text})`);
  return millis;
}

export interface ModelCommandSettings {
  /** Time between two reads of a training being followed. */
  pollIntervalMs?: number;
}

interface KeyOption {
  key?: string;
}

interface TrainOptions extends KeyOption {
  checkpoint: string;
  from?: string;
  to?: string;
  activate: boolean;
  wait: boolean;
}

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

const keyOption = () => new Option('--key <secret key>', "the account's secret API key (sk_…), sent as `Authorization: token <key>`").env('RINGFENCE_API_KEY');

/**
 * `ringfence model train|list|show|activate`: the models API with the account's secret key.
 * Answers other than 2xx are thrown as ModelsApiError (the program prints them and exits 1); so
 * is a training that ends failed, after its model is printed.
 */
export function registerModelCommand(program: Command, connection: () => ApiConnection, settings: ModelCommandSettings = {}): void {
  const pollIntervalMs = settings.pollIntervalMs ?? 1000;
  const clientFor = (command: Command, options: KeyOption): ModelsClient => {
    if (!options.key) command.error('the secret API key is required: pass --key or set RINGFENCE_API_KEY');
    return new ModelsClient({ ...connection(), apiKey: options.key });
  };
  const withClient: WithClient = async (command, options, use) => {
    const client = clientFor(command, options);
    try {
      return await use(client);
    } finally {
      client.close();
    }
  };

  const model = program.command('model').description("the account's models (ADR-0012): train one of a checkpoint from its recorded decisions, follow it, activate it");
  model
    .command('train')
    .description('train a model of a checkpoint, follow the training with a progress bar on standard error, and print the model when it ends (exit code 1 when it failed)')
    .addOption(keyOption())
    .requiredOption('--checkpoint <checkpoint>', 'the checkpoint whose decisions it learns from and which it scores once active (e.g. pspBeforeAuth)')
    .option('--from <ISO time or ms>', 'learn from decisions at or after this event time (default: the first)')
    .option('--to <ISO time or ms>', 'and before this one (default: now)')
    .option('--activate', 'activate the model once it is ready', false)
    .option('--no-wait', 'print the model id at once and leave the training running')
    .action(async (options: TrainOptions, command: Command) => trainModel(options, command, withClient, pollIntervalMs));
  model
    .command('list')
    .description('list the models, newest first, with their status, progress and metrics')
    .addOption(keyOption())
    .option('--checkpoint <checkpoint>', 'only the models of this checkpoint')
    .action(async (options: KeyOption & { checkpoint?: string }, command: Command) => withClient(command, options, async (client) => print(await client.list(options.checkpoint))));
  model
    .command('show <modelId>')
    .description('print a model: its status, progress while training, metrics once ready, whether it is active')
    .addOption(keyOption())
    .action(async (modelId: string, options: KeyOption, command: Command) => withClient(command, options, async (client) => print(await client.read(modelId))));
  model
    .command('activate <modelId>')
    .description('make a ready model score its checkpoint from the next request on, and print it (409 when it is not ready)')
    .addOption(keyOption())
    .action(async (modelId: string, options: KeyOption, command: Command) => withClient(command, options, async (client) => print(await client.activate(modelId))));
}

/** Runs `use` with a client of the models API for the command's key, closed afterwards. */
type WithClient = <T>(command: Command, options: KeyOption, use: (client: ModelsClient) => Promise<T>) => Promise<T>;

/** `ringfence model train`: starts a training, follows it unless --no-wait, prints (or activates) the model. */
async function trainModel(options: TrainOptions, command: Command, withClient: WithClient, pollIntervalMs: number): Promise<void> {
  if (options.activate && !options.wait) command.error('--activate needs the training to end: drop --no-wait, or activate later with `ringfence model activate <modelId>`');
  let request: TrainModelRequest;
  try {
    request = {
      checkpoint: options.checkpoint,
      ...(options.from === undefined ? {} : { from: parseTime('--from', options.from) }),
      ...(options.to === undefined ? {} : { to: parseTime('--to', options.to) }),
    };
  } catch (error) {
    return command.error(error instanceof Error ? error.message : String(error));
  }
  await withClient(command, options, async (client) => {
    const accepted = await client.train(request);
    if (!options.wait) return print(accepted);
    const final = await followWithProgress(client, accepted.modelId, pollIntervalMs);
    if (final.status === 'failed') {
      print(final);
      // The service's own failures already start with "training failed:".
      throw new Error(`training ${final.modelId} failed: ${(final.error ?? 'no reason given').replace(/^training failed:\s*/, '')}`);
    }
    print(options.activate ? await client.activate(final.modelId) : final);
  });
}

/** Follows a training with a progress bar; Ctrl-C stops following, not the training. */
async function followWithProgress(client: ModelsClient, modelId: string, intervalMs: number): Promise<ModelDto> {
  const bar = progressBar(`${modelId} {bar} {percentage}% | {detail}`);
  const hint = `the training goes on: \`ringfence model show ${modelId}\``;
  const interrupted = () => {
    bar.stop();
    process.stderr.write(`ringfence: stopped following; ${hint}\n`);
    process.exit(130);
  };
  const show = (model: ModelDto) => {
    const detail = describeProgress(model);
    const progress = model.progress;
    if (model.status === 'ready') {
      bar.update(bar.getTotal(), { detail });
    } else if (model.status === 'training' && progress && progress.total !== null && progress.total > 0) {
      bar.setTotal(progress.total);
      bar.update(Math.min(progress.done, progress.total), { detail });
    } else if (model.status === 'training') {
      // Reading: how many examples there are is known only once they are read.
      bar.update(0, { detail });
    } else {
      bar.update({ detail });
    }
  };
  bar.start(1, 0, { detail: 'waiting to start' });
  process.once('SIGINT', interrupted);
  try {
    return await followTraining(client, modelId, { intervalMs, onProgress: show });
  } catch (error) {
    bar.stop();
    process.stderr.write(`ringfence: stopped following ${modelId}; ${hint}\n`);
    throw error;
  } finally {
    process.off('SIGINT', interrupted);
    bar.stop();
  }
}
