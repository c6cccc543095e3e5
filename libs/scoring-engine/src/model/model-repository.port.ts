import type { ModelAlgorithm, ModelCandidateDto, ModelLabelMaturityDto, ModelMetricsDto, ModelPositivesByReasonDto, ModelProgressDto, ModelStatus, RuleCheckpoint } from '@ringfence/contracts';
import type { RuleTenant } from '../rules/rule';

/** A trained (or training) model as stored; times in epoch milliseconds. */
export interface ModelRecord {
  modelId: string;
  checkpoint: RuleCheckpoint;
  status: ModelStatus;
  createdAt: number;
  createdBy: string;
  /** The period learnt from: decisions with `from <= timestamp < to`; null from the first. */
  from: number | null;
  to: number;
  examples: number;
  positives: number;
  /** Null until ready, and for models trained before reasons were counted. */
  positivesByReason: ModelPositivesByReasonDto | null;
  /** The algorithm that serves; null until ready. */
  algorithm: ModelAlgorithm | null;
  /** The payments left out as not labelled yet; null when none were (and until ready). */
  labelMaturity: ModelLabelMaturityDto | null;
  /** The served model's held-out metrics. */
  metrics: ModelMetricsDto | null;
  /** Every algorithm fitted, with its held-out metrics; empty until ready. */
  candidates: ModelCandidateDto[];
  active: boolean;
  progress: ModelProgressDto | null;
  error: string | null;
}

/** What a finished training stores: the counts, the served algorithm, the held-out metrics of each candidate, and the served model itself (its JSON). */
export interface TrainedModelResult {
  examples: number;
  positives: number;
  positivesByReason: ModelPositivesByReasonDto;
  labelMaturity: ModelLabelMaturityDto | null;
  algorithm: ModelAlgorithm;
  metrics: ModelMetricsDto;
  candidates: ModelCandidateDto[];
  artifact: string;
}

/** An active model as every scoring instance loads it. */
export interface ActiveModel extends RuleTenant {
  modelId: string;
  checkpoint: RuleCheckpoint;
  artifact: string;
}

/**
 * The models of ADR-0012, per account and data set (the `models` table, owned by scoring).
 * At most one model of a checkpoint is active; only a ready one can be.
 */
export interface ModelRepository {
  create(tenant: RuleTenant, model: Pick<ModelRecord, 'modelId' | 'checkpoint' | 'createdBy' | 'from' | 'to'>): Promise<ModelRecord>;
  /** Where a training is; only while it is training. */
  progress(tenant: RuleTenant, modelId: string, progress: ModelProgressDto): Promise<void>;
  complete(tenant: RuleTenant, modelId: string, result: TrainedModelResult): Promise<void>;
  fail(tenant: RuleTenant, modelId: string, error: string): Promise<void>;
  find(tenant: RuleTenant, modelId: string): Promise<ModelRecord | null>;
  /** Newest first. */
  list(tenant: RuleTenant): Promise<ModelRecord[]>;
  /**
   * Makes a ready model the active one of its checkpoint (the one before it stops being);
   * answers it as it is now, or null when the tenant has no such model. A model that is not
   * ready comes back unchanged.
   */
  activate(tenant: RuleTenant, modelId: string): Promise<ModelRecord | null>;
  /** No trained model of the checkpoint is active any more (the shipped default, or the built-in model, scores it again). */
  deactivate(tenant: RuleTenant, checkpoint: RuleCheckpoint): Promise<void>;
  /** The model itself (its JSON) of a ready model; null otherwise. */
  artifact(tenant: RuleTenant, modelId: string): Promise<string | null>;
  /** The tenant's active model of a checkpoint, with its artifact; null when none is. */
  activeModel(tenant: RuleTenant, checkpoint: RuleCheckpoint): Promise<ActiveModel | null>;
  /** Every tenant's active models: what scoring loads at start. */
  activeModels(): Promise<ActiveModel[]>;
  /** Marks every model still training as failed with `error` (a restart ended them); answers how many. */
  failUnfinished(error: string): Promise<number>;
}

export const MODEL_REPOSITORY = Symbol('ModelRepository');
