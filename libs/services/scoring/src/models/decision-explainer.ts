import { Injectable } from '@nestjs/common';
import { type RuleTenant, featuresFromRecord } from '@ringfence/scoring-engine';
import type { RecordedDecision } from '../decisions/recorded-decision';
import { explanationSides } from './explanation-sides';
import { explainLearned } from './learned-score';
import { ModelBook } from './model-book';

/** A learned model's id, as decisions record it in `modelVersion` (the built-in model's is `ringfence-additive-…`). */
const LEARNED_MODEL_ID = /^mdl_/;

/**
 * Completes a learned model's explanation when a decision is read: its exact TreeSHAP
 * contributions (`explainLearned`) from the features the decision recorded, by the model that
 * decided (which may have been replaced since). A checkpoint does not compute them: they cost
 * about two hundred times the score (libs/learning/README.md). The built-in model's contributions
 * are on the event already.
 */
@Injectable()
export class DecisionExplainer {
  constructor(private readonly book: ModelBook) {}

  async complete(tenant: RuleTenant, event: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { checkpoint, features, explanation } = event as RecordedDecision;
    const modelVersion = features?.modelVersion;
    if (checkpoint === undefined || features === undefined || explanation === undefined || typeof modelVersion !== 'string' || !LEARNED_MODEL_ID.test(modelVersion)) return event;
    const model = await this.book.byId(tenant, modelVersion);
    if (model === null) return event;
    return { ...event, explanation: { ...explanation, ...explanationSides(explainLearned(model, featuresFromRecord(checkpoint, features))) } };
  }
}
