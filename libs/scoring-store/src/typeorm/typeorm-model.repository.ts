import type { ModelAlgorithm, ModelCandidateDto, ModelLabelMaturityDto, ModelMetricsDto, ModelPositivesByReasonDto, ModelProgressDto, ModelStatus, RuleCheckpoint } from '@ringfence/contracts';
import { queryRows } from '@ringfence/persistence';
import type { ActiveModel, ModelRecord, ModelRepository, RuleTenant, TrainedModelResult } from '@ringfence/scoring-engine';
import type { DataSource } from 'typeorm';

interface ModelRow {
  model_id: string;
  checkpoint: RuleCheckpoint;
  status: ModelStatus;
  created_at: Date;
  created_by: string;
  period_from: string | number | null;
  period_to: string | number;
  examples: number;
  positives: number;
  positives_by_reason: string | null;
  label_maturity: string | null;
  algorithm: ModelAlgorithm | null;
  metrics: string | null;
  candidates: string | null;
  progress: string | null;
  error: string | null;
  active: boolean;
}

// Everything but the artifact, which only scoring's model book reads.
const COLUMNS = 'model_id, checkpoint, status, created_at, created_by, period_from, period_to, examples, positives, positives_by_reason, label_maturity, algorithm, metrics, candidates, progress, error, active';
const CREATE = `
  INSERT INTO models (account_id, environment, model_id, checkpoint, status, created_by, period_from, period_to)
  VALUES ($1, $2, $3, $4, 'training', $5, $6, $7)
  RETURNING ${COLUMNS}`;
const PROGRESS = `UPDATE models SET progress = $4 WHERE account_id = $1 AND environment = $2 AND model_id = $3 AND status = 'training'`;
const COMPLETE = `
  UPDATE models SET status = 'ready', progress = NULL, examples = $4, positives = $5, metrics = $6, artifact = $7,
         positives_by_reason = $8, algorithm = $9, candidates = $10, label_maturity = $11
   WHERE account_id = $1 AND environment = $2 AND model_id = $3 AND status = 'training'`;
const FAIL = `UPDATE models SET status = 'failed', progress = NULL, error = $4 WHERE account_id = $1 AND environment = $2 AND model_id = $3 AND status = 'training'`;
const FIND = `SELECT ${COLUMNS} FROM models WHERE account_id = $1 AND environment = $2 AND model_id = $3`;
const LIST = `SELECT ${COLUMNS} FROM models WHERE account_id = $1 AND environment = $2 ORDER BY created_at DESC, model_id DESC`;
// Both statements in one transaction: the partial unique index allows one active model per
// checkpoint at every moment, so the one before is switched off first.
const DEACTIVATE_OTHERS = `
  UPDATE models SET active = false
   WHERE account_id = $1 AND environment = $2 AND active AND model_id <> $3
     AND checkpoint = (SELECT checkpoint FROM models WHERE account_id = $1 AND environment = $2 AND model_id = $3 AND status = 'ready')`;
const ACTIVATE = `UPDATE models SET active = true WHERE account_id = $1 AND environment = $2 AND model_id = $3 AND status = 'ready'`;
const DEACTIVATE_CHECKPOINT = `UPDATE models SET active = false WHERE account_id = $1 AND environment = $2 AND checkpoint = $3 AND active`;
const ARTIFACT = `SELECT artifact FROM models WHERE account_id = $1 AND environment = $2 AND model_id = $3 AND status = 'ready'`;
const ACTIVE_MODELS = `SELECT account_id, environment, model_id, checkpoint, artifact FROM models WHERE active ORDER BY account_id, environment, checkpoint`;
const ACTIVE_MODEL = `SELECT account_id, environment, model_id, checkpoint, artifact FROM models WHERE account_id = $1 AND environment = $2 AND checkpoint = $3 AND active`;
const FAIL_UNFINISHED = `UPDATE models SET status = 'failed', progress = NULL, error = $1 WHERE status = 'training' RETURNING model_id`;

/** The models table (both modes). */
export class TypeOrmModelRepository implements ModelRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(tenant: RuleTenant, model: Pick<ModelRecord, 'modelId' | 'checkpoint' | 'createdBy' | 'from' | 'to'>): Promise<ModelRecord> {
    const [row] = await queryRows<ModelRow>(this.dataSource, CREATE, [
      tenant.accountId,
      tenant.environment,
      model.modelId,
      model.checkpoint,
      model.createdBy,
      model.from,
      model.to,
    ]);
    return toModelRecord(row);
  }

  async progress(tenant: RuleTenant, modelId: string, progress: ModelProgressDto): Promise<void> {
    await queryRows(this.dataSource, PROGRESS, [tenant.accountId, tenant.environment, modelId, JSON.stringify(progress)]);
  }

  async complete(tenant: RuleTenant, modelId: string, result: TrainedModelResult): Promise<void> {
    await queryRows(this.dataSource, COMPLETE, [
      tenant.accountId,
      tenant.environment,
      modelId,
      result.examples,
      result.positives,
      JSON.stringify(result.metrics),
      result.artifact,
      JSON.stringify(result.positivesByReason),
      result.algorithm,
      JSON.stringify(result.candidates),
      result.labelMaturity === null ? null : JSON.stringify(result.labelMaturity),
    ]);
  }

  async fail(tenant: RuleTenant, modelId: string, error: string): Promise<void> {
    await queryRows(this.dataSource, FAIL, [tenant.accountId, tenant.environment, modelId, error]);
  }

  async find(tenant: RuleTenant, modelId: string): Promise<ModelRecord | null> {
    const rows = await queryRows<ModelRow>(this.dataSource, FIND, [tenant.accountId, tenant.environment, modelId]);
    return rows.length === 0 ? null : toModelRecord(rows[0]);
  }

  async list(tenant: RuleTenant): Promise<ModelRecord[]> {
    const rows = await queryRows<ModelRow>(this.dataSource, LIST, [tenant.accountId, tenant.environment]);
    return rows.map(toModelRecord);
  }

  async activate(tenant: RuleTenant, modelId: string): Promise<ModelRecord | null> {
    const parameters = [tenant.accountId, tenant.environment, modelId];
    await this.dataSource.transaction(async (manager) => {
      await manager.query(DEACTIVATE_OTHERS, parameters);
      await manager.query(ACTIVATE, parameters);
    });
    return this.find(tenant, modelId);
  }

  async deactivate(tenant: RuleTenant, checkpoint: RuleCheckpoint): Promise<void> {
    await queryRows(this.dataSource, DEACTIVATE_CHECKPOINT, [tenant.accountId, tenant.environment, checkpoint]);
  }

  async artifact(tenant: RuleTenant, modelId: string): Promise<string | null> {
    const rows = await queryRows<{ artifact: string | null }>(this.dataSource, ARTIFACT, [tenant.accountId, tenant.environment, modelId]);
    return rows[0]?.artifact ?? null;
  }

  async activeModel(tenant: RuleTenant, checkpoint: RuleCheckpoint): Promise<ActiveModel | null> {
    const rows = await queryRows<ActiveModelRow>(this.dataSource, ACTIVE_MODEL, [tenant.accountId, tenant.environment, checkpoint]);
    return rows.length === 0 ? null : toActiveModel(rows[0]);
  }

  async activeModels(): Promise<ActiveModel[]> {
    return (await queryRows<ActiveModelRow>(this.dataSource, ACTIVE_MODELS, [])).map(toActiveModel);
  }

  async failUnfinished(error: string): Promise<number> {
    return (await queryRows(this.dataSource, FAIL_UNFINISHED, [error])).length;
  }
}

interface ActiveModelRow {
  account_id: string;
  environment: string;
  model_id: string;
  checkpoint: RuleCheckpoint;
  artifact: string;
}

function toActiveModel(row: ActiveModelRow): ActiveModel {
  return { accountId: row.account_id, environment: row.environment, modelId: row.model_id, checkpoint: row.checkpoint, artifact: row.artifact };
}

function toModelRecord(row: ModelRow): ModelRecord {
  return {
    modelId: row.model_id,
    checkpoint: row.checkpoint,
    status: row.status,
    createdAt: new Date(row.created_at).getTime(),
    createdBy: row.created_by,
    from: row.period_from === null ? null : Number(row.period_from),
    to: Number(row.period_to),
    examples: Number(row.examples),
    positives: Number(row.positives),
    // A model trained before analysts' payment reviews counted had none of them (ADR-0012).
    positivesByReason: row.positives_by_reason === null ? null : { analystMarkedFraud: 0, ...(JSON.parse(row.positives_by_reason) as Partial<ModelPositivesByReasonDto>) } as ModelPositivesByReasonDto,
    labelMaturity: row.label_maturity === null ? null : (JSON.parse(row.label_maturity) as ModelLabelMaturityDto),
    algorithm: row.algorithm,
    metrics: row.metrics === null ? null : (JSON.parse(row.metrics) as ModelMetricsDto),
    candidates: row.candidates === null ? [] : (JSON.parse(row.candidates) as ModelCandidateDto[]),
    active: row.active,
    progress: row.progress === null ? null : (JSON.parse(row.progress) as ModelProgressDto),
    error: row.error,
  };
}
