import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RULE_CHECKPOINTS, type RuleCheckpoint } from '@ringfence/contracts';
import { modelFromDocument } from '@ringfence/learning';
import { type LoadedModel, loadedModel } from './learned-score';

/**
 * Where the shipped default models are: `libs/services/scoring/default-models/<checkpoint>.json`,
 * copied beside the compiled code by tools/build.mjs, so the same relative path works from the
 * sources (tests) and from dist/.
 */
export const DEFAULT_MODELS_DIRECTORY = join(__dirname, '..', '..', 'default-models');

export const DEFAULT_MODELS = Symbol('DEFAULT_MODELS');

/** What a shipped model's file says of its training (`provenance`), as far as the models API shows it. */
export interface ShippedProvenance {
  examples?: number;
  positives?: number;
  metrics?: { auc?: number | null; averagePrecision?: number | null; precisionAtPrevent?: number | null; recallAtReview?: number | null };
}

/** A shipped model beside its weights: when its file was written (the release) and its provenance. */
export interface ShippedModelDescription {
  releasedAt: number;
  provenance: ShippedProvenance;
}

/**
 * The models that ship with the product, one at most per checkpoint, trained on simulated traffic
 * (docs/model.md, "The default model"): where an account has not activated a model of its own,
 * a checkpoint's shipped model scores beside the built-in one and is answered where it scores
 * higher (`withShippedModel`), so an account with too few labels to train one still gets what a
 * learned model sees. Read once at start; a file that is not a model stops the start, since it
 * is a broken release, not bad input.
 */
export class DefaultModels {
  private constructor(
    private readonly byCheckpoint: ReadonlyMap<RuleCheckpoint, LoadedModel>,
    private readonly descriptions: ReadonlyMap<RuleCheckpoint, ShippedModelDescription> = new Map(),
  ) {}

  static none(): DefaultModels {
    return new DefaultModels(new Map());
  }

  static load(directory = DEFAULT_MODELS_DIRECTORY): DefaultModels {
    const byCheckpoint = new Map<RuleCheckpoint, LoadedModel>();
    const descriptions = new Map<RuleCheckpoint, ShippedModelDescription>();
    if (!existsSync(directory)) return new DefaultModels(byCheckpoint);
    for (const file of readdirSync(directory).filter((name) => name.endsWith('.json')).sort()) {
      const checkpoint = file.slice(0, -'.json'.length) as RuleCheckpoint;
      if (!RULE_CHECKPOINTS.includes(checkpoint)) throw new Error(`default model ${file}: not named after a checkpoint (${RULE_CHECKPOINTS.join(', ')})`);
      const text = readFileSync(join(directory, file), 'utf8');
      const shipped = JSON.parse(text) as { model?: unknown; provenance?: ShippedProvenance };
      // The id names the file's content: decisions record it, and a new release's model is another id.
      const version = createHash('sha256').update(text).digest('hex').slice(0, 12);
      byCheckpoint.set(checkpoint, loadedModel(`mdl_default_${checkpoint}_${version}`, modelFromDocument(shipped.model), 'shipped'));
      descriptions.set(checkpoint, { releasedAt: statSync(join(directory, file)).mtimeMs, provenance: shipped.provenance ?? {} });
    }
    return new DefaultModels(byCheckpoint, descriptions);
  }

  of(checkpoint: RuleCheckpoint): LoadedModel | undefined {
    return this.byCheckpoint.get(checkpoint);
  }

  /** The checkpoints a default model ships for, with what its file says of it (`GET /v2/models`). */
  shipped(): Array<{ checkpoint: RuleCheckpoint; model: LoadedModel; description: ShippedModelDescription }> {
    return [...this.byCheckpoint.entries()].map(([checkpoint, model]) => ({ checkpoint, model, description: this.descriptions.get(checkpoint) ?? { releasedAt: 0, provenance: {} } }));
  }

  byId(modelId: string): LoadedModel | undefined {
    for (const model of this.byCheckpoint.values()) if (model.modelId === modelId) return model;
    return undefined;
  }

  get size(): number {
    return this.byCheckpoint.size;
  }
}

export const defaultModelsProvider = { provide: DEFAULT_MODELS, useFactory: () => DefaultModels.load() };
