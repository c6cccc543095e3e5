import { queryRows } from '@ringfence/persistence';
import type { DataSource } from 'typeorm';
import type { LatestDecisionStore } from './latest-decisions.store';

// One statement for every customer: per id, the subject index (account, environment,
// subject_kind, subject_id, event_time, score_id) read backwards for one row.
const LATEST = `
  SELECT ids.position, latest.event FROM unnest($3::text[]) WITH ORDINALITY AS ids(subject_id, position)
  CROSS JOIN LATERAL (
    SELECT event FROM decision_records
     WHERE account_id = $1 AND environment = $2 AND subject_kind = 'customer' AND subject_id = ids.subject_id
     ORDER BY event_time DESC, score_id DESC
     LIMIT 1
  ) latest`;

/** Latest decisions from `decision_records` (both modes). */
export class TypeOrmLatestDecisions implements LatestDecisionStore {
  constructor(private readonly dataSource: DataSource) {}

  async latestEvents(tenant: { accountId: string; environment: string }, customerIds: readonly string[]): Promise<Array<Record<string, unknown> | null>> {
    const events: Array<Record<string, unknown> | null> = customerIds.map(() => null);
    if (customerIds.length === 0) return events;
    const rows = await queryRows<{ position: string | number; event: string }>(this.dataSource, LATEST, [tenant.accountId, tenant.environment, customerIds]);
    for (const row of rows) events[Number(row.position) - 1] = JSON.parse(row.event) as Record<string, unknown>;
    return events;
  }
}
