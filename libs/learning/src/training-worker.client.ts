import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type ModelDocument, modelFromDocument } from './model-document';
import type { Algorithm, CandidateMetrics, CandidateProgress, HoldoutMetrics, ModelTrainingRequest } from './model-training';
import type { ScoringModel } from './scoring-model';

/**
 * The compiled worker entry next to this file (`dist/libs/learning/src/model-training.worker.js`).
 * A worker thread runs plain JavaScript: from TypeScript sources (jest) pass the built file's
 * path as `workerScript`.
 */
export const TRAINING_WORKER_SCRIPT = join(__dirname, 'model-training.worker.js');

/** What the worker posts back. */
export type TrainingWorkerMessage =
  | { type: 'progress'; done: number; total: number; validationLoss: number | null; algorithm: Algorithm }
  | { type: 'done'; document: ModelDocument; algorithm: Algorithm; metrics: HoldoutMetrics; candidates: CandidateMetrics[]; trainingExamples: number; validationExamples: number }
  | { type: 'failed'; message: string };

export interface WorkerTrainingOptions {
  workerScript?: string;
  onProgress?: CandidateProgress;
  /**
   * Moves the matrix's, labels' and times' memory to the worker instead of copying it (a million
   * rows of 230 features are 0.9 GB); the caller's arrays are unusable afterwards.
   */
  transferInput?: boolean;
  /** Stops the worker; the promise rejects. */
  signal?: AbortSignal;
}

export interface WorkerTrainingResult {
  /** The served model (`algorithm`'s). */
  model: ScoringModel;
  /** The model as stored: what `modelFromDocument` loaded `model` from. */
  document: ModelDocument;
  algorithm: Algorithm;
  metrics: HoldoutMetrics;
  candidates: CandidateMetrics[];
  trainingExamples: number;
  validationExamples: number;
}

/**
 * Runs `trainScoringModel` on a worker thread, so a server keeps answering while a model trains
 * for minutes; progress arrives after each tree and after a baseline. Rejects when training fails, the worker dies, or
 * `signal` aborts (the worker is terminated).
 */
export function trainInWorker(request: ModelTrainingRequest, options: WorkerTrainingOptions = {}): Promise<WorkerTrainingResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new Error('training aborted before it started'));
      return;
    }
    const transferList = options.transferInput ? [request.matrix.values.buffer, request.labels.buffer, request.eventTimes.buffer] : undefined;
    const worker = new Worker(options.workerScript ?? TRAINING_WORKER_SCRIPT, { workerData: request, transferList: transferList as ArrayBuffer[] | undefined });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', abort);
      outcome();
    };
    const abort = () => {
      settle(() => reject(new Error('training aborted')));
      void worker.terminate();
    };
    options.signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (message: TrainingWorkerMessage) => {
      switch (message.type) {
        case 'progress':
          options.onProgress?.(message.done, message.total, message.validationLoss, message.algorithm);
          return;
        case 'done':
          settle(() => {
            try {
              const { document, algorithm, metrics, candidates, trainingExamples, validationExamples } = message;
              resolve({ model: modelFromDocument(document), document, algorithm, metrics, candidates, trainingExamples, validationExamples });
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
          return;
        case 'failed':
          settle(() => reject(new Error(`training failed: ${message.message}`)));
          return;
      }
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the training worker exited (code ${code}) without a result`))));
  });
}
