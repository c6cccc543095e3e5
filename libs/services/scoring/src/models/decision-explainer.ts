import { Injectable } from '@nestjs/common';
import { type RuleTenant, featuresFromRecord } from '@ringfence/scoring-engine';
import type { RecordedDecision } from '../decisions/recorded-decision';
import { explanationSides } from './explanation-sides';
import { explainLearned, identityOfLoaded, modelIdentityOf } from './learned-score';
import { ModelBook } from './model-book';

/** A learned model's id, as decisions record it in `modelVersion` (the built-in model's is `ringfence-additive-…`). */
const LEARNED_MODEL_ID = /^mdl_/;

/**
 * Completes what a decision recorded before its explanation carried it, from the model that
 * decided (which may have been replaced since): the `model` block (id, whose, algorithm), and a
 * learned model's contributions where both sides are empty (`explainLearned`, from the features
 * the decision recorded). Decisions recorded since carry both from the checkpoint.
 */
@Injectable()
export class DecisionExplainer {
  constructor(private readonly book: ModelBook) {}

  async complete(tenant: RuleTenant, event: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { checkpoint, features, explanation } = event as RecordedDecision;
    const modelVersion = features?.modelVersion;
    if (explanation === undefined || typeof modelVersion !== 'string') return event;
    const learned = LEARNED_MODEL_ID.test(modelVersion);
    const lacksModel = explanation.model === undefined;
    const lacksContributions = learned && checkpoint !== undefined && !hasContributions(explanation.raised) && !hasContributions(explanation.lowered);
    if (!lacksModel && !lacksContributions) return event;
    if (!learned) return { ...event, explanation: { ...explanation, model: modelIdentityOf({ modelVersion }) } };
    const model = await this.book.byId(tenant, modelVersion);
    if (model === null) return event;
    return {
      ...event,
      explanation: {
        ...explanation,
        ...(lacksModel ? { model: identityOfLoaded(model) } : {}),
        ...(lacksContributions && checkpoint !== undefined && features !== undefined ? explanationSides(explainLearned(model, featuresFromRecord(checkpoint, features))) : {}),
      },
    };
  }
}

function hasContributions(side: unknown): boolean {
  return Array.isArray(side) && side.length > 0;
}
