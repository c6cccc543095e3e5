import { parentPort, workerData } from 'node:worker_threads';
import { modelDocument } from './model-document';
import { type ModelTrainingRequest, trainScoringModel } from './model-training';
import type { TrainingWorkerMessage } from './training-worker.client';

/**
 * The worker thread's entry (`trainInWorker` starts it from the compiled file): trains on the
 * request it was started with (with its baseline, when it names one: both fits run here, off the
 * caller's event loop) and posts progress after each tree and after the baseline, then the
 * served model as its JSON document (a class instance would arrive as a plain object) with
 * every candidate's held-out metrics, or the failure.
 */
function run(port: NonNullable<typeof parentPort>, request: ModelTrainingRequest): void {
  const post = (message: TrainingWorkerMessage) => port.postMessage(message);
  try {
    const result = trainScoringModel(request, (done, total, validationLoss, algorithm) => post({ type: 'progress', done, total, validationLoss, algorithm }));
    const { algorithm, metrics, candidates, trainingExamples, validationExamples } = result;
    post({ type: 'done', document: modelDocument(result.model), algorithm, metrics, candidates, trainingExamples, validationExamples });
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}

if (parentPort) run(parentPort, workerData as ModelTrainingRequest);
