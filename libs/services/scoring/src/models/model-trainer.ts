import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type MessageEnvelope, type ModelLabelMaturityDto, type ModelMetricsDto, type ModelProgressDto, POSITIVE_REASONS, type ScoreThresholds, type TrainModelAcceptedDto, type TrainModelRequest } from '@ringfence/contracts';
import { type CandidateProgress, type HoldoutMetrics, type ModelTrainingRequest, type WorkerTrainingResult, modelDocument, trainInWorker } from '@ringfence/learning';
import { type Logger, type RingfenceConfig, prefixedId } from '@ringfence/platform';
import { MODEL_REPOSITORY, type ModelRepository, type RuleTenant, type Thresholds, type TrainedModelResult, scoringCheckpointOf, thresholdsFor } from '@ringfence/scoring-engine';
import { RINGFENCE_CONFIG, ROOT_LOGGER, requestAccount } from '@ringfence/service-runtime';
import type { PositivesByReason } from '../decisions/labelling-policy';
import { TrainingExampleReader, type TrainingExamples, TrainingTooLarge } from './training-examples';
import { TrainingSlots } from './training-slots';

/** Fewer examples of either class than this cannot be split in time into learning, validation and held-out parts that each hold both. */
export const MIN_EXAMPLES_PER_CLASS = 20;
/** Progress is written at most this often (a tree takes milliseconds). */
const PROGRESS_INTERVAL_MS = 1_000;

/**
 * Runs a training: in production a worker thread (`trainInWorker`); tests may train in process.
 * It must stop (reject) when `signal` aborts: the training is over its time bound.
 */
export type TrainingRunner = (
  request: ModelTrainingRequest,
  onProgress: CandidateProgress,
  signal: AbortSignal,
) => Promise<Pick<WorkerTrainingResult, 'model' | 'algorithm' | 'metrics' | 'candidates'>>;

export const TRAINING_RUNNER = Symbol('TrainingRunner');

// Aborting terminates the worker thread: the core and the memory it held are given back at once.
export const workerTrainingRunner: TrainingRunner = (request, onProgress, signal) => trainInWorker(request, { onProgress, transferInput: true, signal });

/** The bounds of training (ADR-0016): the settings `MAX_CONCURRENT_TRAININGS`, `TRAINING_MAX_SECONDS`, `TRAINING_MAX_EXAMPLES`. */
export type TrainingBounds = Pick<RingfenceConfig, 'maxConcurrentTrainings' | 'trainingMaxSeconds' | 'trainingMaxExamples'>;

/**
 * Trains an account's models off the request path: `start` records the model as training and
 * answers at once; the training itself reads the examples page by page, labelled by the
 * labelling policy (`TrainingExampleReader`), fits the gradient-boosted trees and the logistic
 * regression baseline on the same time split on a worker thread (the event loop keeps answering
 * checkpoints), and stores the one that ranks the held-out fraud better (`servedAlgorithm`)
 * with both candidates' held-out metrics and the positives by reason, or why it failed. A
 * training a restart interrupted is marked failed at the next start.
 *
 * Bounded (ADR-0016, "Tenants share fairly"): one training per account and at most
 * `maxConcurrentTrainings` at once (`TrainingSlots`; each takes a core for as long as it runs,
 * and this machine class has two), refused with 429 past either rather than queued. A training
 * is asynchronous by design (the API answers 202 and is polled), so it cannot stop with its
 * request: it stops instead when it can no longer end in reasonable time, after
 * `trainingMaxSeconds`, or with more than `trainingMaxExamples` decisions to learn from; either
 * way it is marked failed with the reason and its slot is given back.
 */
@Injectable()
export class ModelTrainer implements OnModuleInit {
  private readonly slots: TrainingSlots;
  private readonly running = new Set<Promise<void>>();

  constructor(
    @Inject(MODEL_REPOSITORY) private readonly models: ModelRepository,
    @Inject(TRAINING_RUNNER) private readonly runTraining: TrainingRunner,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly examples: TrainingExampleReader,
    @Inject(RINGFENCE_CONFIG) private readonly bounds: TrainingBounds,
  ) {
    this.slots = new TrainingSlots(bounds.maxConcurrentTrainings);
  }

  async onModuleInit(): Promise<void> {
    const interrupted = await this.models.failUnfinished('interrupted: the service restarted while it trained; train again');
    if (interrupted > 0) this.logger.warn({ interrupted }, 'trainings a restart interrupted were marked failed');
  }

  async start(message: MessageEnvelope<TrainModelRequest>): Promise<TrainModelAcceptedDto> {
    const { checkpoint, from, to, author } = message.payload;
    const tenant = { accountId: message.accountId, environment: message.environment };
    // The thresholds as the account has them when the training is asked for (for its metrics).
    const { scoreThresholds } = requestAccount(message).settings;
    const modelId = prefixedId('mdl');
    this.slots.take(tenant.accountId, modelId);
    const model = await this.models.create(tenant, { modelId, checkpoint, createdBy: author, from: from ?? null, to: to ?? Date.now() }).catch((error: unknown) => {
      this.slots.release(tenant.accountId, modelId);
      throw error;
    });
    const run = this.train(message, tenant, scoreThresholds, modelId, model.from ?? 0, model.to).finally(() => {
      this.slots.release(tenant.accountId, modelId);
      this.running.delete(run);
    });
    this.running.add(run);
    return { modelId, status: model.status };
  }

  /** Settles when every training asked for so far has ended (for tests and shutdown). */
  async idle(): Promise<void> {
    await Promise.all(this.running);
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
    const overTime = AbortSignal.timeout(this.bounds.trainingMaxSeconds * 1_000);
    try {
      await progress.report({ stage: 'reading', done: 0, total: null }, true);
      const examples = await this.examples.read(message, checkpoint, from, to, (done) => progress.report({ stage: 'reading', done, total: null }), {
        maxExamples: this.bounds.trainingMaxExamples,
        signal: overTime,
      });
      refuseTooFewExamples(examples);
      // Read before training: the worker takes the arrays over (they are detached here after).
      const counted = { examples: examples.labels.length, positives: examples.positives, positivesByReason: examples.positivesByReason, labelMaturity: examples.labelMaturity };
      const started = Date.now();
      const result = await this.fit(examples, thresholdsFor(scoringCheckpointOf(checkpoint), scoreThresholds), progress, overTime);
      await progress.settled();
      await this.models.complete(tenant, modelId, trainedModelResult(counted, result));
      const judged = Object.fromEntries(result.candidates.map(({ algorithm, metrics }) => [algorithm, { auc: metrics.auc, averagePrecision: metrics.averagePrecision }]));
      this.logger.info({ modelId, checkpoint, ...counted, algorithm: result.algorithm, candidates: judged, durationMs: Date.now() - started, traceId: message.traceId }, 'model trained');
    } catch (error) {
      await progress.settled();
      await this.models.fail(tenant, modelId, this.failureReason(message, modelId, error, overTime.aborted));
    }
  }

  /** The trees and the logistic regression baseline, fitted on the worker, progress reported as it goes. */
  private fit(examples: TrainingExamples, thresholds: Thresholds, progress: ThrottledProgress, overTime: AbortSignal): ReturnType<TrainingRunner> {
    return this.runTraining(
      {
        algorithm: 'gradient-boosted-trees',
        baseline: 'logistic-regression',
        features: examples.features,
        matrix: examples.matrix,
        labels: examples.labels,
        eventTimes: examples.eventTimes,
        thresholds,
      },
      (done, total, _validationLoss, algorithm) =>
        void progress.report(algorithm === 'gradient-boosted-trees' ? { stage: 'training', done, total } : { stage: 'baseline', done, total }, algorithm !== 'gradient-boosted-trees'),
      overTime,
    );
  }

  /** Why a training failed, as the model records it; logged unless it was refused for its examples. */
  private failureReason(message: MessageEnvelope<TrainModelRequest>, modelId: string, error: unknown, overTime: boolean): string {
    const { checkpoint } = message.payload;
    const detail = error instanceof Error ? error.message : String(error);
    // The worker's own failures already say "training failed: …".
    const reason = overTime
      ? `stopped: the training ran longer than TRAINING_MAX_SECONDS (${this.bounds.trainingMaxSeconds} s); train on a shorter period`
      : error instanceof TrainingRefused || error instanceof TrainingTooLarge || detail.startsWith('training failed')
        ? detail
        : `training failed: ${detail}`;
    if (overTime || error instanceof TrainingTooLarge) this.logger.warn({ modelId, checkpoint, reason, traceId: message.traceId }, 'model training stopped at its bound');
    else if (!(error instanceof TrainingRefused)) this.logger.error({ modelId, checkpoint, err: error, traceId: message.traceId }, 'model training failed');
    return reason;
  }
}

/** Fewer than `MIN_EXAMPLES_PER_CLASS` of either class: `TrainingRefused`, saying how many the period has. */
function refuseTooFewExamples({ labels, positives, positivesByReason, labelMaturity }: TrainingExamples): void {
  const negatives = labels.length - positives;
  if (positives >= MIN_EXAMPLES_PER_CLASS && negatives >= MIN_EXAMPLES_PER_CLASS) return;
  throw new TrainingRefused(
    `needs at least ${MIN_EXAMPLES_PER_CLASS} positives and ${MIN_EXAMPLES_PER_CLASS} negatives; the period has ${positives} positives${reasonsOf(positivesByReason)} and ${negatives} negatives${leftOutOf(labelMaturity)}`,
  );
}

/** What the model records of a finished training: the examples counted, the served model and both candidates' held-out metrics. */
function trainedModelResult(
  counted: Pick<TrainedModelResult, 'examples' | 'positives' | 'positivesByReason' | 'labelMaturity'>,
  result: Awaited<ReturnType<TrainingRunner>>,
): TrainedModelResult {
  return {
    ...counted,
    algorithm: result.algorithm,
    metrics: { ...metricsDto(result.metrics), scale: { ...result.model.scale } },
    candidates: result.candidates.map(({ algorithm, metrics }) => ({ algorithm, metrics: metricsDto(metrics) })),
    artifact: JSON.stringify(modelDocument(result.model)),
  };
}

/** A training that cannot start with these examples: its message is the model's `error` as is. */
class TrainingRefused extends Error {}

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

/** The API's form of held-out metrics: a value that could not be computed (one class only) is null. */
function metricsDto({ auc, averagePrecision, precisionAtPrevent, recallAtReview }: HoldoutMetrics): ModelMetricsDto {
  return { auc: finiteOrNull(auc), averagePrecision: finiteOrNull(averagePrecision), precisionAtPrevent: finiteOrNull(precisionAtPrevent), recallAtReview: finiteOrNull(recallAtReview) };
}

/** ` (disputedPayment 3, customerLabelledFraudster 1)`: the reasons that counted any, for a refusal's message. */
function reasonsOf(byReason: PositivesByReason): string {
  const counted = POSITIVE_REASONS.filter((reason) => byReason[reason] > 0).map((reason) => `${reason} ${byReason[reason]}`);
  return counted.length === 0 ? '' : ` (${counted.join(', ')})`;
}

/** ", after leaving out N payments whose disputes may still come", or nothing. */
function leftOutOf(maturity: ModelLabelMaturityDto | null): string {
  return maturity === null ? '' : `, after leaving out the ${maturity.leftOut} latest decisions, whose disputes may still come (95 % of this account's disputes came within ${maturity.horizonDays} days)`;
}

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
