import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelDto } from '@ringfence/contracts';
import { Command, CommanderError } from 'commander';
import { AdminApiError } from './admin-client';
import { ModelsClient, describeProgress, followTraining, registerModelCommand } from './model-command';

const KEY = 'sk_test_models';

const modelFactory = (overrides: Partial<ModelDto> = {}): ModelDto => ({
  modelId: 'mdl_good',
  checkpoint: 'pspBeforeAuth',
  status: 'training',
  createdAt: '2026-02-10T09:00:00.000Z',
  createdBy: 'key_test',
  from: null,
  to: 1770714000000,
  examples: 0,
  positives: 0,
  positivesByReason: null,
  labelMaturity: null,
  algorithm: null,
  metrics: null,
  candidates: [],
  active: false,
  ...overrides,
});

const READY = { status: 'ready', examples: 4800, positives: 96, metrics: { auc: 0.97, averagePrecision: 0.81, precisionAtPrevent: 0.9, recallAtReview: 0.85 }, progress: undefined } as const;
const REFUSED = 'needs at least 20 positives and 20 negatives; the period has 3 positives and 400 negatives';

/** What each read of a model answers next: a state of the model, or a passing 503. */
type Step = Partial<ModelDto> | 'unavailable';

/** The models API played by a real local HTTP server: each read of a model moves its training one step on. */
class ModelsApiStub {
  readonly requests: Array<{ method: string; path: string; body: unknown }> = [];
  private readonly models = new Map<string, { model: ModelDto; steps: Step[] }>();
  private server?: Server;
  url = '';

  /** The trainings the next POSTs start, by checkpoint. */
  constructor(private readonly trainings: Record<string, { modelId: string; steps: Step[] }>) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  add(model: ModelDto, steps: Step[] = []): void {
    this.models.set(model.modelId, { model, steps });
  }

  paths(method: string): string[] {
    return this.requests.filter((request) => request.method === method).map((request) => request.path);
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      const method = request.method ?? 'GET';
      const url = new URL(request.url ?? '/', 'http://stub');
      this.requests.push({ method, path: `${url.pathname}${url.search}`, body });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(value));
      };
      const error = (status: number, message: string, headers: Record<string, string> = {}) =>
        json(status, { status, message, timestamp: Date.now(), traceId: `trace-${status}` }, headers);
      if (request.headers.authorization !== `token ${KEY}`) return error(401, 'a secret API key is required');

      if (method === 'POST' && url.pathname === '/v2/models/train') {
        const { checkpoint } = body as { checkpoint: string };
        const training = this.trainings[checkpoint];
        if (!training) return error(400, 'checkpoint: must be one of customer, voucherRedemption, registration, refund, payout, pspBeforeAuth, pspAfterAuth');
        this.add(modelFactory({ modelId: training.modelId, checkpoint: checkpoint as ModelDto['checkpoint'] }), [...training.steps]);
        return json(202, { modelId: training.modelId, status: 'training' });
      }
      if (method === 'GET' && url.pathname === '/v2/models') {
        const checkpoint = url.searchParams.get('checkpoint');
        const models = [...this.models.values()].map((entry) => entry.model).filter((model) => checkpoint === null || model.checkpoint === checkpoint);
        return json(200, { status: 200, timestamp: Date.now(), data: { models } });
      }
      const match = /^\/v2\/models\/([^/]+)(\/activate)?$/.exec(url.pathname);
      const entry = match ? this.models.get(match[1]!) : undefined;
      if (!entry) return error(404, 'no such model');
      if (method === 'GET' && !match![2]) {
        const step = entry.steps.shift();
        if (step === 'unavailable') return error(503, 'the service is busy', { 'retry-after': '0' });
        if (step) entry.model = { ...entry.model, ...step };
        return json(200, entry.model);
      }
      if (method === 'POST' && match![2]) {
        if (entry.model.status !== 'ready') return error(409, `model ${entry.model.modelId} is ${entry.model.status}, not ready`);
        entry.model = { ...entry.model, active: true };
        return json(200, entry.model);
      }
      error(404, 'no such route');
    });
  }
}

const GOOD_TRAINING: Step[] = [
  { progress: { stage: 'reading', done: 0, total: null } },
  { progress: { stage: 'reading', done: 1200, total: null } },
  'unavailable',
  { examples: 4800, positives: 96, progress: { stage: 'training', done: 150, total: 300 } },
  READY,
];
const FAILED_TRAINING: Step[] = [{ progress: { stage: 'reading', done: 0, total: null } }, { status: 'failed', progress: undefined, error: REFUSED }];

describe('ringfence model', () => {
  let api: ModelsApiStub;
  let stdout: string[];
  let stderr: string[];
  const savedKey = process.env.RINGFENCE_API_KEY;

  beforeEach(async () => {
    delete process.env.RINGFENCE_API_KEY;
    api = new ModelsApiStub({ pspBeforeAuth: { modelId: 'mdl_good', steps: GOOD_TRAINING }, refund: { modelId: 'mdl_bad', steps: FAILED_TRAINING } });
    await api.start();
    stdout = [];
    stderr = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (stdout.push(String(chunk)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await api.stop();
    if (savedKey === undefined) delete process.env.RINGFENCE_API_KEY;
    else process.env.RINGFENCE_API_KEY = savedKey;
  });

  /** Runs `ringfence model …` as main.ts does, with the stub as the gateway and fast polling. */
  const ringfence = async (...args: string[]): Promise<void> => {
    const program = new Command().exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
    registerModelCommand(program, () => ({ baseUrl: api.url, insecure: false }), { pollIntervalMs: 5 });
    await program.parseAsync(['node', 'ringfence', 'model', ...args]);
  };
  const printed = (): unknown => JSON.parse(stdout.join(''));

  it('train posts the checkpoint and period with the key, follows the training through a passing 503 until ready, activates it and prints it', async () => {
    await ringfence('train', '--key', KEY, '--checkpoint', 'pspBeforeAuth', '--from', '2026-01-05T00:00:00Z', '--to', '1770000000000', '--activate');

    expect(api.requests[0]).toEqual({ method: 'POST', path: '/v2/models/train', body: { checkpoint: 'pspBeforeAuth', from: Date.UTC(2026, 0, 5), to: 1770000000000 } });
    expect(api.paths('GET')).toEqual(Array(GOOD_TRAINING.length).fill('/v2/models/mdl_good'));
    expect(api.paths('POST')).toEqual(['/v2/models/train', '/v2/models/mdl_good/activate']);
    expect(printed()).toEqual({ ...modelFactory(), ...READY, progress: undefined, active: true });
  });

  it('train without --activate leaves the ready model inactive', async () => {
    await ringfence('train', '--key', KEY, '--checkpoint', 'pspBeforeAuth');

    expect(api.paths('POST')).toEqual(['/v2/models/train']);
    expect(printed()).toMatchObject({ modelId: 'mdl_good', status: 'ready', active: false });
  });

  it('train of a training that fails prints the model and rejects with its error (exit code 1), activating nothing', async () => {
    const outcome = ringfence('train', '--key', KEY, '--checkpoint', 'refund', '--activate');

    await expect(outcome).rejects.toThrow(`training mdl_bad failed: ${REFUSED}`);
    expect(printed()).toMatchObject({ modelId: 'mdl_bad', status: 'failed', error: REFUSED });
    expect(api.paths('POST')).toEqual(['/v2/models/train']);
  });

  it('train --no-wait prints the accepted training and does not follow it', async () => {
    await ringfence('train', '--key', KEY, '--checkpoint', 'pspBeforeAuth', '--no-wait');

    expect(printed()).toEqual({ modelId: 'mdl_good', status: 'training' });
    expect(api.paths('GET')).toEqual([]);
  });

  it('train refuses a time it cannot read, and --activate with --no-wait, before asking the API', async () => {
    await expect(ringfence('train', '--key', KEY, '--checkpoint', 'pspBeforeAuth', '--from', 'last tuesday')).rejects.toThrow(CommanderError);
    await expect(ringfence('train', '--key', KEY, '--checkpoint', 'pspBeforeAuth', '--activate', '--no-wait')).rejects.toThrow(CommanderError);
    await expect(ringfence('train', '--checkpoint', 'pspBeforeAuth')).rejects.toThrow(CommanderError);
    expect(api.requests).toEqual([]);
  });

  it('an error of the API rejects with its status, message and traceId, which the program prints', async () => {
    const outcome = ringfence('train', '--key', KEY, '--checkpoint', 'nowhere');

    await expect(outcome).rejects.toBeInstanceOf(AdminApiError);
    await expect(outcome).rejects.toMatchObject({ status: 400, message: expect.stringContaining('checkpoint: must be one of'), traceId: 'trace-400' });
    expect(stdout).toEqual([]);
  });

  it('activate of a model that is not ready rejects with the 409 (exit code 1)', async () => {
    api.add(modelFactory({ modelId: 'mdl_bad', status: 'failed', error: REFUSED }));

    await expect(ringfence('activate', 'mdl_bad', '--key', KEY)).rejects.toMatchObject({ status: 409, message: 'model mdl_bad is failed, not ready', traceId: 'trace-409' });
    expect(stdout).toEqual([]);
  });

  it('activate of a ready model prints it active', async () => {
    api.add(modelFactory({ ...READY }));

    await ringfence('activate', 'mdl_good', '--key', KEY);

    expect(api.paths('POST')).toEqual(['/v2/models/mdl_good/activate']);
    expect(printed()).toMatchObject({ modelId: 'mdl_good', status: 'ready', active: true });
  });

  it('list asks for the checkpoint given and prints the models; show prints one', async () => {
    api.add(modelFactory({ ...READY }));
    api.add(modelFactory({ modelId: 'mdl_refund', checkpoint: 'refund' }));

    await ringfence('list', '--key', KEY, '--checkpoint', 'pspBeforeAuth');
    expect(api.paths('GET')).toEqual(['/v2/models?checkpoint=pspBeforeAuth']);
    expect(printed()).toEqual({ models: [expect.objectContaining({ modelId: 'mdl_good' })] });

    stdout.length = 0;
    await ringfence('show', 'mdl_refund', '--key', KEY);
    expect(printed()).toEqual(modelFactory({ modelId: 'mdl_refund', checkpoint: 'refund' }));
  });
});

describe(followTraining.name, () => {
  let api: ModelsApiStub;
  let client: ModelsClient;
  beforeEach(async () => {
    api = new ModelsApiStub({});
    await api.start();
    client = new ModelsClient({ baseUrl: api.url, insecure: false, apiKey: KEY });
  });
  afterEach(async () => {
    client.close();
    await api.stop();
  });

  it('reports each state it reads, in words: examples read, then trees built of the total', async () => {
    api.add(modelFactory(), [...GOOD_TRAINING]);
    const seen: string[] = [];

    const final = await followTraining(client, 'mdl_good', { intervalMs: 5, onProgress: (model) => seen.push(describeProgress(model)) });

    expect(final.status).toBe('ready');
    expect(seen).toEqual(['reading 0 examples…', 'reading 1,200 examples…', 'trees 150 of 300', 'ready']);
  });

  it('gives up after the passing failures allowed in a row, and at once on a 404', async () => {
    api.add(modelFactory(), ['unavailable', 'unavailable', 'unavailable']);

    await expect(followTraining(client, 'mdl_good', { intervalMs: 5, maxConsecutiveFailures: 3 })).rejects.toMatchObject({ status: 503 });
    expect(api.paths('GET')).toHaveLength(3);

    await expect(followTraining(client, 'mdl_gone', { intervalMs: 5 })).rejects.toMatchObject({ status: 404, message: 'no such model' });
    expect(api.paths('GET')).toHaveLength(4);
  });
});
