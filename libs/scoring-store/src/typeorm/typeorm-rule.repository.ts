import type { ChallengePreference, RuleAction, RuleCheckpoint, ScaExemption, StoredRuleState } from '@ringfence/contracts';
import type { RuleDefinition, RuleRepository, RuleSuspension, RuleTenant, RuleVersion } from '@ringfence/scoring-engine';
import type { DataSource } from 'typeorm';
import { queryRows } from '@ringfence/persistence';

interface RuleVersionRow {
  account_id: string;
  environment: string;
  rule_id: number;
  rule_version: number;
  name: string;
  description: string;
  checkpoint: RuleCheckpoint;
  expression: string;
  action: RuleAction;
  state: StoredRuleState;
  exemption: ScaExemption | null;
  challenge_preference: ChallengePreference | null;
  created_at: Date;
  created_by: string;
  author: string;
  /** From rule_suspensions: null when the version is not suspended. */
  suspended_at?: Date | null;
  suspension_reason?: string | null;
}

const COLUMNS = 'account_id, environment, rule_id, rule_version, name, description, checkpoint, expression, action, state, exemption, challenge_preference, created_at, created_by, author';
// The next free ruleId of the tenant, version 1. Two concurrent creates may pick the same id:
// the primary key refuses the second, which retries.
const CREATE = `
  INSERT INTO rule_versions (account_id, environment, rule_id, rule_version, name, description, checkpoint, expression, action, state, exemption, challenge_preference, created_by, author)
  SELECT $1, $2, COALESCE(MAX(rule_id), 0) + 1, 1, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12
    FROM rule_versions WHERE account_id = $1 AND environment = $2
  RETURNING ${COLUMNS}`;
// The next version of an existing rule; no row when the tenant has no such rule.
const ADD_VERSION = `
  INSERT INTO rule_versions (account_id, environment, rule_id, rule_version, name, description, checkpoint, expression, action, state, exemption, challenge_preference, created_by, author)
  SELECT $1, $2, $3, MAX(rule_version) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13
    FROM rule_versions WHERE account_id = $1 AND environment = $2 AND rule_id = $3
  HAVING COUNT(*) > 0
  RETURNING ${COLUMNS}`;
// Each version with its suspension, if any (ADR-0016).
const WITH_SUSPENSION = `
  SELECT ${COLUMNS.split(', ').map((column) => `v.${column}`).join(', ')}, s.suspended_at, s.reason AS suspension_reason
    FROM rule_versions v
    LEFT JOIN rule_suspensions s USING (account_id, environment, rule_id, rule_version)`;
const VERSIONS = `${WITH_SUSPENSION} WHERE v.account_id = $1 AND v.environment = $2 AND v.rule_id = $3 ORDER BY v.rule_version`;
const CURRENT = `
  SELECT DISTINCT ON (rule_id) * FROM (${WITH_SUSPENSION} WHERE v.account_id = $1 AND v.environment = $2) versions
   ORDER BY rule_id, rule_version DESC`;
const ALL_LIVE = `
  SELECT * FROM (
    SELECT DISTINCT ON (account_id, environment, rule_id) * FROM (${WITH_SUSPENSION}) versions
     ORDER BY account_id, environment, rule_id, rule_version DESC
  ) latest WHERE state <> 'disabled'`;
const SUSPEND = `
  INSERT INTO rule_suspensions (account_id, environment, rule_id, rule_version, suspended_at, reason)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (account_id, environment, rule_id, rule_version) DO NOTHING`;

const UNIQUE_VIOLATION = '23505';
/** Attempts of a save that lost a race for its number; each retry reads the new maximum. */
const SAVE_ATTEMPTS = 5;

/** Rule versions in `rule_versions` (both modes). */
export class TypeOrmRuleRepository implements RuleRepository {
  constructor(private readonly dataSource: DataSource) {}

  create(tenant: RuleTenant, definition: RuleDefinition, createdBy: string, author = `key ${createdBy}`): Promise<RuleVersion> {
    return this.saving(async () => {
      const [row] = await queryRows<RuleVersionRow>(this.dataSource, CREATE, [tenant.accountId, tenant.environment, ...definitionParameters(definition), createdBy, author]);
      return toRuleVersion(row);
    });
  }

  addVersion(tenant: RuleTenant, ruleId: number, definition: RuleDefinition, createdBy: string, author = `key ${createdBy}`): Promise<RuleVersion | null> {
    return this.saving(async () => {
      const rows = await queryRows<RuleVersionRow>(this.dataSource, ADD_VERSION, [tenant.accountId, tenant.environment, ruleId, ...definitionParameters(definition), createdBy, author]);
      return rows.length === 0 ? null : toRuleVersion(rows[0]);
    });
  }

  async versions(tenant: RuleTenant, ruleId: number): Promise<RuleVersion[]> {
    const rows = await queryRows<RuleVersionRow>(this.dataSource, VERSIONS, [tenant.accountId, tenant.environment, ruleId]);
    return rows.map(toRuleVersion);
  }

  async currentVersions(tenant: RuleTenant, checkpoint?: RuleCheckpoint): Promise<RuleVersion[]> {
    const rows = await queryRows<RuleVersionRow>(this.dataSource, CURRENT, [tenant.accountId, tenant.environment]);
    return rows.map(toRuleVersion).filter((rule) => checkpoint === undefined || rule.checkpoint === checkpoint);
  }

  async allLiveVersions(): Promise<Array<RuleVersion & RuleTenant>> {
    const rows = await queryRows<RuleVersionRow>(this.dataSource, ALL_LIVE, []);
    return rows.map((row) => ({ ...toRuleVersion(row), accountId: row.account_id, environment: row.environment }));
  }

  async suspend(tenant: RuleTenant, ruleId: number, ruleVersion: number, suspension: RuleSuspension): Promise<void> {
    await queryRows(this.dataSource, SUSPEND, [tenant.accountId, tenant.environment, ruleId, ruleVersion, new Date(suspension.suspendedAt), suspension.reason]);
  }

  private async saving<T>(save: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await save();
      } catch (error) {
        if (attempt >= SAVE_ATTEMPTS || !isUniqueViolation(error)) throw error;
      }
    }
  }
}

function definitionParameters(definition: RuleDefinition): unknown[] {
  const optimisation = definition.transactionOptimisation;
  return [
    definition.name,
    definition.description,
    definition.checkpoint,
    definition.expression,
    definition.action,
    definition.state,
    optimisation?.exemption ?? null,
    optimisation?.threeDSChallengePreference ?? null,
  ];
}

function toRuleVersion(row: RuleVersionRow): RuleVersion {
  return {
    ruleId: Number(row.rule_id),
    ruleVersion: Number(row.rule_version),
    name: row.name,
    description: row.description,
    checkpoint: row.checkpoint,
    expression: row.expression,
    action: row.action,
    state: row.state,
    createdAt: new Date(row.created_at).getTime(),
    createdBy: row.created_by,
    author: row.author,
    ...optimisationOf(row),
    ...(row.suspended_at === null || row.suspended_at === undefined
      ? {}
      : { suspension: { suspendedAt: new Date(row.suspended_at).getTime(), reason: row.suspension_reason ?? '' } }),
  };
}

function optimisationOf(row: RuleVersionRow): Pick<RuleVersion, 'transactionOptimisation'> {
  if (row.exemption === null && row.challenge_preference === null) return {};
  return {
    transactionOptimisation: {
      ...(row.exemption === null ? {} : { exemption: row.exemption }),
      ...(row.challenge_preference === null ? {} : { threeDSChallengePreference: row.challenge_preference }),
    },
  };
}

function isUniqueViolation(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  return code === UNIQUE_VIOLATION || driverError?.code === UNIQUE_VIOLATION;
}
