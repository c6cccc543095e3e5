import type { Environment } from '@ringfence/contracts';
import type { EvidenceKind, IndicatorKind } from '@ringfence/lookup';
import { EntitySchema } from 'typeorm';

const INDICATOR_KEY = ['accountId', 'environment', 'kind', 'value'];

export interface LookupIndicatorRow {
  accountId: string;
  environment: Environment;
  kind: IndicatorKind;
  value: string;
  /** bigint epoch ms: the driver returns them as decimal strings. */
  firstSeenAt: string;
  lastSeenAt: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * `lookup_indicators`: one row per indicator an account reported, keyed tenant first. Whether an
 * indicator is known is decided by its evidence; this row is what an account's DELETE removes.
 */
export const LookupIndicatorEntity = new EntitySchema<LookupIndicatorRow>({
  name: 'lookup_indicator',
  tableName: 'lookup_indicators',
  columns: {
    accountId: { name: 'account_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_indicators' },
    environment: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_indicators' },
    kind: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_indicators' },
    value: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_indicators' },
    firstSeenAt: { name: 'first_seen_at', type: 'bigint' },
    lastSeenAt: { name: 'last_seen_at', type: 'bigint' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    updatedAt: { name: 'updated_at', type: 'timestamptz', default: () => 'now()' },
  },
  checks: [
    { name: 'chk_lookup_indicators_environment', expression: `environment IN ('test', 'live')` },
    {
      name: 'chk_lookup_indicators_kind',
      expression: `kind IN ('email', 'telephone', 'ipAddress', 'instrumentId', 'payerId', 'bankId')`,
    },
  ],
});

export interface LookupEvidenceRow {
  accountId: string;
  environment: Environment;
  kind: IndicatorKind;
  value: string;
  evidenceKind: EvidenceKind;
  evidenceId: string;
  /** bigint epoch ms: when the indicator was seen with this evidence. */
  seenAt: string;
  details: Record<string, unknown>;
  /** The reporting account's industry (it never changes): what `limitIndustry` compares. */
  reporterIndustry: string | null;
  createdAt: Date;
}

/**
 * `lookup_evidence`: the chargebacks, manual reviews and bare reports behind each account's
 * indicators, one row per (indicator, evidence). The index leads with the data set and the
 * indicator, not the account: lookups aggregate every account's evidence of an indicator.
 */
export const LookupEvidenceEntity = new EntitySchema<LookupEvidenceRow>({
  name: 'lookup_evidence',
  tableName: 'lookup_evidence',
  columns: {
    accountId: { name: 'account_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_evidence' },
    environment: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_evidence' },
    kind: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_evidence' },
    value: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_evidence' },
    evidenceKind: { name: 'evidence_kind', type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_evidence' },
    evidenceId: { name: 'evidence_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_lookup_evidence' },
    seenAt: { name: 'seen_at', type: 'bigint' },
    details: { type: 'jsonb' },
    reporterIndustry: { name: 'reporter_industry', type: 'text', nullable: true },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
  },
  indices: [{ name: 'idx_lookup_evidence_indicator_seen_at', columns: ['environment', 'kind', 'value', 'seenAt'] }],
  foreignKeys: [
    {
      name: 'fk_lookup_evidence_indicator',
      target: LookupIndicatorEntity,
      columnNames: INDICATOR_KEY,
      referencedColumnNames: INDICATOR_KEY,
    },
  ],
  checks: [{ name: 'chk_lookup_evidence_evidence_kind', expression: `evidence_kind IN ('chargeback', 'manualReview', 'report')` }],
});
