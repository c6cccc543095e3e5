import { parentPort, workerData } from 'node:worker_threads';
import { modelDocument } from './model-document';
import { type ModelTrainingRequest, trainScoringModel } from './model-training';
import type { TrainingWorkerMessage } from './training-worker.client';

/**
 * The worker thread's entry (`trainInWorker` starts it from the compiled file): trains on the
 * request it was started with and posts progress after each tree, then the model as its JSON
 * document (a class instance would arrive as a plain object), or the failure.
 */
function run(port: NonNullable<typeof parentPort>, request: ModelTrainingRequest): void {
  const post = (message: TrainingWorkerMessage) => port.postMessage(message);
  try {
    const result = trainScoringModel(request, (treesDone, treesTotal, validationLoss) => post({ type: 'progress', treesDone, treesTotal, validationLoss }));
    post({ type: 'done', document: modelDocument(result.model), metrics: result.metrics, trainingExamples: result.trainingExamples, validationExamples: result.validationExamples });
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}

if (parentPort) run(parentPort, workerData as ModelTrainingRequest);
