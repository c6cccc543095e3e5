import { type ModelDto, type RuleCheckpoint, shippedModelId } from '@ringfence/contracts';
import type { ModelRecord } from '@ringfence/scoring-engine';
import type { DefaultModels } from './default-models';

/** The checkpoint a `default-<checkpoint>` id names; undefined for a trained model's id. */
export function shippedCheckpointOf(modelId: string, defaults: DefaultModels): RuleCheckpoint | undefined {
  return defaults.shipped().find(({ checkpoint }) => shippedModelId(checkpoint) === modelId)?.checkpoint;
}

/**
 * The default models shipped with the product, as the models API lists them beside the trained
 * ones (ADR-0012): one per checkpoint it ships for, `default-<checkpoint>`, active while no
 * trained model of its checkpoint is, with the metrics its file carries (measured on the
 * simulated traffic it was trained on).
 */
export function shippedModelDtos(defaults: DefaultModels, trained: readonly Pick<ModelRecord, 'checkpoint' | 'active'>[], checkpoint?: RuleCheckpoint): ModelDto[] {
  return defaults
    .shipped()
    .filter((shipped) => checkpoint === undefined || shipped.checkpoint === checkpoint)
    .map(({ checkpoint: of, model, description }) => {
      const { provenance, releasedAt } = description;
      const metrics = provenance.metrics;
      return {
        modelId: shippedModelId(of),
        checkpoint: of,
        status: 'ready',
        createdAt: new Date(releasedAt).toISOString(),
        createdBy: 'ringfence',
        from: null,
        to: Math.round(releasedAt),
        examples: provenance.examples ?? 0,
        positives: provenance.positives ?? 0,
        positivesByReason: null,
        algorithm: model.model.predictor.kind,
        labelMaturity: null,
        metrics:
          metrics === undefined
            ? null
            : {
                auc: metrics.auc ?? null,
                averagePrecision: metrics.averagePrecision ?? null,
                precisionAtPrevent: metrics.precisionAtPrevent ?? null,
                recallAtReview: metrics.recallAtReview ?? null,
                scale: model.model.scale,
              },
        candidates: [],
        active: !trained.some((record) => record.checkpoint === of && record.active),
        shipped: true,
        version: model.modelId,
      };
    });
}
