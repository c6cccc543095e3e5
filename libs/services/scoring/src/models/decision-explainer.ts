import { Injectable } from '@nestjs/common';
import { type RuleTenant, featuresFromRecord } from '@ringfence/scoring-engine';
import type { RecordedDecision } from '../decisions/recorded-decision';
import { explanationSides } from './explanation-sides';
import { explainLearned } from './learned-score';
import { ModelBook } from './model-book';

/** A learned model's id, as decisions record it in `modelVersion` (the built-in model's is `ringfence-additive-…`). */
const LEARNED_MODEL_ID = /^mdl_/;

/**
 * Completes the explanation of a learned model's decision recorded before decision events carried
 * a learned model's contributions (both sides empty): its exact TreeSHAP contributions
 * (`explainLearned`) from the features the decision recorded, by the model that decided (which
 * may have been replaced since). Decisions recorded since carry them from the checkpoint.
 */
@Injectable()
export class DecisionExplainer {
  constructor(private readonly book: ModelBook) {}

  async complete(tenant: RuleTenant, event: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { checkpoint, features, explanation } = event as RecordedDecision;
    const modelVersion = features?.modelVersion;
    if (checkpoint === undefined || features === undefined || explanation === undefined || typeof modelVersion !== 'string' || !LEARNED_MODEL_ID.test(modelVersion)) return event;
    if (hasContributions(explanation.raised) || hasContributions(explanation.lowered)) return event;
    const model = await this.book.byId(tenant, modelVersion);
    if (model === null) return event;
    return { ...event, explanation: { ...explanation, ...explanationSides(explainLearned(model, featuresFromRecord(checkpoint, features))) } };
  }
}

function hasContributions(side: unknown): boolean {
  return Array.isArray(side) && side.length > 0;
}
