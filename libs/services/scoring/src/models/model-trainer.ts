import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageEnvelope, ModelProgressDto, ScoreThresholds, TrainModelAcceptedDto, TrainModelRequest } from '@ringfence/contracts';
import { type ModelTrainingRequest, type WorkerTrainingResult, modelDocument, trainInWorker } from '@ringfence/learning';
import { type Logger, prefixedId } from '@ringfence/platform';
import { MODEL_REPOSITORY, type ModelRepository, type RuleTenant, scoringCheckpointOf, thresholdsFor } from '@ringfence/scoring-engine';
import { ROOT_LOGGER, requestAccount } from '@ringfence/service-runtime';
import { TrainingExampleReader } from './training-examples';

/** Fewer examples of either class than this cannot be split in time into learning, validation and held-out parts that each hold both. */
export const MIN_EXAMPLES_PER_CLASS = 20;
/** Progress is written at most this often (a tree takes milliseconds). */
const PROGRESS_INTERVAL_MS = 1_000;

/** Runs a training: in production a worker thread (`trainInWorker`); tests may train in process. */
export type TrainingRunner = (request: ModelTrainingRequest, onProgress: (treesDone: number, treesTotal: number) => void) => Promise<Pick<WorkerTrainingResult, 'model' | 'metrics'>>;

export const TRAINING_RUNNER = Symbol('TrainingRunner');

export const workerTrainingRunner: TrainingRunner = (request, onProgress) => trainInWorker(request, { onProgress, transferInput: true });

/**
 * Trains the models of decisions §12 off the request path: `start` records the model as
 * training and answers at once; the training itself reads the examples page by page
 * (`TrainingExampleReader`), trains on a worker thread (the event loop keeps answering
 * checkpoints) and stores the model with its held-out metrics, or why it failed. Trainings run
 * one at a time per process: each takes a core for as long as it runs, and this machine class
 * has two. A training a restart interrupted is marked failed at the next start.
 */
@Injectable()
export class ModelTrainer implements OnModuleInit {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    @Inject(MODEL_REPOSITORY) private readonly models: ModelRepository,
    @Inject(TRAINING_RUNNER) private readonly runTraining: TrainingRunner,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly examples: TrainingExampleReader,
  ) {}

  async onModuleInit(): Promise<void> {
    const interrupted = await this.models.failUnfinished('interrupted: the service restarted while it trained; train again');
    if (interrupted > 0) this.logger.warn({ interrupted }, 'trainings a restart interrupted were marked failed');
  }

  async start(message: MessageEnvelope<TrainModelRequest>): Promise<TrainModelAcceptedDto> {
    const { checkpoint, from, to, author } = message.payload;
    const tenant = { accountId: message.accountId, environment: message.environment };
    // The thresholds as the account has them when the training is asked for (for its metrics).
    const { scoreThresholds } = requestAccount(message).settings;
    const model = await this.models.create(tenant, { modelId: prefixedId('mdl'), checkpoint, createdBy: author, from: from ?? null, to: to ?? Date.now() });
    const run = this.queue.then(() => this.train(message, tenant, scoreThresholds, model.modelId, model.from ?? 0, model.to));
    this.queue = run.catch(() => undefined);
    return { modelId: model.modelId, status: model.status };
  }

  /** Settles when every training asked for so far has ended (for tests and shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  private async train(
    message: MessageEnvelope<TrainModelRequest>,
    tenant: RuleTenant,
    scoreThresholds: ScoreThresholds | null | undefined,
    modelId: string,
    from: number,
    to: number,
  ): Promise<void> {
    const { checkpoint } = message.payload;
    const progress = new ThrottledProgress((value) => this.models.progress(tenant, modelId, value));
    try {
      await progress.report({ stage: 'reading', done: 0, total: null }, true);
      const examples = await this.examples.read(message, checkpoint, from, to, (done) => progress.report({ stage: 'reading', done, total: null }));
      const negatives = examples.labels.length - examples.positives;
      if (examples.positives < MIN_EXAMPLES_PER_CLASS || negatives < MIN_EXAMPLES_PER_CLASS) {
        throw new TrainingRefused(
          `needs at least ${MIN_EXAMPLES_PER_CLASS} positives and ${MIN_EXAMPLES_PER_CLASS} negatives; the period has ${examples.positives} positives and ${negatives} negatives`,
        );
      }
      const thresholds = thresholdsFor(scoringCheckpointOf(checkpoint), scoreThresholds);
      // Read before training: the worker takes the arrays over (they are detached here after).
      const count = examples.labels.length;
      const { positives } = examples;
      const started = Date.now();
      const result = await this.runTraining(
        { algorithm: 'gradient-boosted-trees', features: examples.features, matrix: examples.matrix, labels: examples.labels, eventTimes: examples.eventTimes, thresholds },
        (treesDone, treesTotal) => void progress.report({ stage: 'training', done: treesDone, total: treesTotal }),
      );
      await progress.settled();
      const { auc, averagePrecision, precisionAtPrevent, recallAtReview } = result.metrics;
      await this.models.complete(tenant, modelId, {
        examples: count,
        positives,
        metrics: {
          auc: finiteOrNull(auc),
          averagePrecision: finiteOrNull(averagePrecision),
          precisionAtPrevent: finiteOrNull(precisionAtPrevent),
          recallAtReview: finiteOrNull(recallAtReview),
          scale: { ...result.model.scale },
        },
        artifact: JSON.stringify(modelDocument(result.model)),
      });
      this.logger.info({ modelId, checkpoint, examples: count, positives, auc, durationMs: Date.now() - started, traceId: message.traceId }, 'model trained');
    } catch (error) {
      await progress.settled();
      const detail = error instanceof Error ? error.message : String(error);
      // The worker's own failures already say "training failed: …".
      const reason = error instanceof TrainingRefused || detail.startsWith('training failed') ? detail : `training failed: ${detail}`;
      if (!(error instanceof TrainingRefused)) this.logger.error({ modelId, checkpoint, err: error, traceId: message.traceId }, 'model training failed');
      await this.models.fail(tenant, modelId, reason);
    }
  }
}

/** A training that cannot start with these examples: its message is the model's `error` as is. */
class TrainingRefused extends Error {}

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

/** Writes progress at most once a second, one write at a time, always the latest value. */
class ThrottledProgress {
  private lastWrite = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly write: (progress: ModelProgressDto) => Promise<void>) {}

  report(progress: ModelProgressDto, force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - this.lastWrite < PROGRESS_INTERVAL_MS) return this.writing;
    this.lastWrite = now;
    // A failed progress write loses one update, never the training.
    this.writing = this.writing.then(() => this.write(progress)).catch(() => undefined);
    return this.writing;
  }

  settled(): Promise<void> {
    return this.writing;
  }
}
