import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { RuleCheckpoint } from '@ringfence/contracts';
import { modelFromJson } from '@ringfence/learning';
import { LRUCache } from 'lru-cache';
import type { Logger } from '@ringfence/platform';
import { type ActiveModel, MODEL_REPOSITORY, type ModelRepository, type RuleTenant } from '@ringfence/scoring-engine';
import { ROOT_LOGGER } from '@ringfence/service-runtime';
import { DEFAULT_MODELS, type DefaultModels } from './default-models';
import { type LoadedModel, loadedModel } from './learned-score';

/** Inactive models kept loaded for decision reads: each is a few megabytes at most. */
const RECENT_MODELS = 8;

const bookKey = (tenant: RuleTenant, checkpoint: RuleCheckpoint): string => JSON.stringify([tenant.accountId, tenant.environment, checkpoint]);
const modelKey = (tenant: RuleTenant, modelId: string): string => JSON.stringify([tenant.accountId, tenant.environment, 'model', modelId]);

/**
 * The active learned model of every tenant's checkpoint, loaded, in memory: read from the models
 * table at start and refreshed on every activation (by the activation itself and by the
 * `modelActivated` consumer of every scoring instance). A checkpoint reads no table for its model.
 * It also holds the default models shipped with the product (`DefaultModels`), which join the
 * built-in model where a tenant activated none (`CheckpointScorer`).
 *
 * A refresh installs whatever the table says is active *now*, not the model an event names, so
 * activations applied twice, late or out of order end in the same state. Refreshes run one after
 * another, so a slow artifact read cannot install an older answer over a newer one.
 */
@Injectable()
export class ModelBook implements OnModuleInit {
  private readonly active = new Map<string, LoadedModel>();
  private readonly activeById = new Map<string, LoadedModel>();
  /** Models loaded for decision reads, beyond the active ones. */
  private readonly recent = new LRUCache<string, LoadedModel>({ max: RECENT_MODELS });
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(MODEL_REPOSITORY) private readonly models: ModelRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    @Inject(DEFAULT_MODELS) private readonly defaults: DefaultModels,
  ) {}

  async onModuleInit(): Promise<void> {
    const started = Date.now();
    const active = await this.models.activeModels();
    for (const model of active) this.install(model, model.checkpoint, model);
    this.logger.info({ models: this.active.size, defaultModels: this.defaults.size, durationMs: Date.now() - started }, 'active models loaded');
  }

  /** The learned model the tenant activated for its checkpoint; undefined when it activated none. */
  modelOf(tenant: RuleTenant, checkpoint: RuleCheckpoint): LoadedModel | undefined {
    return this.active.get(bookKey(tenant, checkpoint));
  }

  /** The default model shipped for the checkpoint (`DefaultModels`), for tenants that activated none; undefined when none ships. */
  shippedModelOf(checkpoint: RuleCheckpoint): LoadedModel | undefined {
    return this.defaults.of(checkpoint);
  }

  /**
   * Any ready model of the tenant by id, active or not (a decision read names the model that
   * decided it, which may have been replaced since); recently used ones stay loaded.
   */
  async byId(tenant: RuleTenant, modelId: string): Promise<LoadedModel | null> {
    const shipped = this.defaults.byId(modelId);
    if (shipped !== undefined) return shipped;
    const key = modelKey(tenant, modelId);
    const cached = this.activeById.get(key) ?? this.recent.get(key);
    if (cached !== undefined) return cached;
    const artifact = await this.models.artifact(tenant, modelId);
    if (artifact === null) return null;
    const loaded = loadedModel(modelId, modelFromJson(artifact), 'account');
    this.recent.set(key, loaded);
    return loaded;
  }

  /** Installs the checkpoint's model as the table has it now (or none). */
  refresh(tenant: RuleTenant, checkpoint: RuleCheckpoint): Promise<void> {
    const run = this.refreshing.then(async () => this.install(tenant, checkpoint, await this.models.activeModel(tenant, checkpoint)));
    this.refreshing = run.catch(() => undefined);
    return run;
  }

  private install(tenant: RuleTenant, checkpoint: RuleCheckpoint, stored: ActiveModel | null): void {
    const key = bookKey(tenant, checkpoint);
    const held = this.active.get(key);
    if (held?.modelId === stored?.modelId) return;
    if (held !== undefined) {
      this.active.delete(key);
      this.activeById.delete(modelKey(tenant, held.modelId));
    }
    if (stored === null) return;
    try {
      const loaded = loadedModel(stored.modelId, modelFromJson(stored.artifact), 'account');
      this.active.set(key, loaded);
      this.activeById.set(modelKey(tenant, stored.modelId), loaded);
    } catch (error) {
      // Stored by this service after it loaded once; refusing it now means the format moved on.
      this.logger.error({ modelId: stored.modelId, checkpoint, err: error }, 'an active model could not be loaded; the built-in model scores its checkpoint');
    }
  }
}
