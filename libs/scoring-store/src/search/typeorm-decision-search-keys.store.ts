import { background, queryRows } from '@ringfence/persistence';
import type { DataSource } from 'typeorm';
import type { DecisionSearchKeyRow, DecisionSearchKeyStore } from './decision-search-keys.store';

// One statement per batch, written behind with the decision records.
const ADD_ALL = background(`
  INSERT INTO decision_search_keys (account_id, environment, key_kind, key_value, subject_kind, subject_id)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
  ON CONFLICT DO NOTHING`);
// An equality on the primary key's first four columns, read in its order: an index range, never a scan.
const SUBJECTS = `
  SELECT subject_kind, subject_id FROM decision_search_keys
   WHERE account_id = $1 AND environment = $2 AND key_kind = $3 AND key_value = $4
   ORDER BY subject_kind, subject_id
   LIMIT $5`;
// One primary-key lookup per instrument; an instrument seen as several cards (it should not be) answers the first.
const CARDS = `
  SELECT DISTINCT ON (key_value) key_value, subject_id FROM decision_search_keys
   WHERE account_id = $1 AND environment = $2 AND key_kind = 'instrument' AND key_value = ANY($3::text[]) AND subject_kind = 'card'
   ORDER BY key_value, subject_id`;

/** Search keys in `decision_search_keys` (both modes). */
export class TypeOrmDecisionSearchKeys implements DecisionSearchKeyStore {
  constructor(private readonly dataSource: DataSource) {}

  async addAll(rows: readonly DecisionSearchKeyRow[]): Promise<void> {
    if (rows.length === 0) return;
    await queryRows(this.dataSource, ADD_ALL, [
      rows.map((row) => row.accountId),
      rows.map((row) => row.environment),
      rows.map((row) => row.keyKind),
      rows.map((row) => row.keyValue),
      rows.map((row) => row.subjectKind),
      rows.map((row) => row.subjectId),
    ]);
  }

  async subjects(tenant: { accountId: string; environment: string }, keyKind: string, keyValue: string, limit: number) {
    const rows = await queryRows<{ subject_kind: string; subject_id: string }>(this.dataSource, SUBJECTS, [tenant.accountId, tenant.environment, keyKind, keyValue, limit]);
    return rows.map((row) => ({ subjectKind: row.subject_kind === 'supplier' ? ('supplier' as const) : ('customer' as const), subjectId: row.subject_id }));
  }

  async cardsOfInstruments(tenant: { accountId: string; environment: string }, instrumentIds: readonly string[]): Promise<Array<string | null>> {
    if (instrumentIds.length === 0) return [];
    const rows = await queryRows<{ key_value: string; subject_id: string }>(this.dataSource, CARDS, [tenant.accountId, tenant.environment, instrumentIds]);
    const cards = new Map(rows.map((row) => [row.key_value, row.subject_id]));
    return instrumentIds.map((instrumentId) => cards.get(instrumentId) ?? null);
  }
}
