import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Records filled per statement while the columns are backfilled. */
const BACKFILL_BATCH = 1_000;

interface StoredRow {
  account_id: string;
  environment: string;
  score_id: string;
  event: string;
  recorded_ms: string;
}

/**
 * The decision list of the console (`GET /v2/decisions`, ADR-0014) filters the records by
 * subject and action and reads them newest first across checkpoints; the review queue compares
 * labels with the time the decision was made. The event is text no statement looks into, so
 * these become columns of their own, each with an index that serves its filter in keyset order
 * (`… event_time, score_id`, scanned backwards for newest first):
 * - `subject_kind`, `subject_id`: the customer or supplier decided about;
 * - `action`: the action answered (the review queue reads REVIEW only);
 * - `decided_at`: when the service accepted the request it decided (epoch ms, the service's
 *   clock, as labels' times are). Records stored before this have their `recorded_at` (written
 *   behind, a flush after the decision): the closest time kept.
 * The existing `(…, checkpoint, event_time, score_id)` index keeps serving the checkpoint filter;
 * `(…, event_time, score_id)` serves the list without one.
 *
 * Existing records are filled by reading their JSON here, a batch at a time, rather than by
 * casting the text to jsonb in SQL: text holds any JSON the service wrote, including strings
 * jsonb refuses, and a start must not fail on one old record.
 */
export class DecisionRecordListing1765100000000 implements MigrationInterface {
  readonly name = 'DecisionRecordListing1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE decision_records ADD COLUMN subject_kind text NULL, ADD COLUMN subject_id text NULL, ADD COLUMN action text NULL, ADD COLUMN decided_at bigint NULL',
    );
    await backfill(queryRunner);
    await queryRunner.query('ALTER TABLE decision_records ALTER COLUMN decided_at SET NOT NULL');
    await queryRunner.query('CREATE INDEX idx_decision_records_time ON decision_records (account_id, environment, event_time, score_id)');
    await queryRunner.query(
      'CREATE INDEX idx_decision_records_subject_time ON decision_records (account_id, environment, subject_kind, subject_id, event_time, score_id)',
    );
    await queryRunner.query('CREATE INDEX idx_decision_records_action_time ON decision_records (account_id, environment, action, event_time, score_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX idx_decision_records_action_time');
    await queryRunner.query('DROP INDEX idx_decision_records_subject_time');
    await queryRunner.query('DROP INDEX idx_decision_records_time');
    await queryRunner.query('ALTER TABLE decision_records DROP COLUMN decided_at, DROP COLUMN action, DROP COLUMN subject_id, DROP COLUMN subject_kind');
  }
}

async function backfill(queryRunner: QueryRunner): Promise<void> {
  let after: [string, string, string] = ['', '', ''];
  for (;;) {
    const rows = (await queryRunner.query(
      `SELECT account_id, environment, score_id, event, (extract(epoch FROM recorded_at) * 1000)::bigint AS recorded_ms
         FROM decision_records
        WHERE (account_id, environment, score_id) > ($1, $2, $3)
        ORDER BY account_id, environment, score_id
        LIMIT ${BACKFILL_BATCH}`,
      after,
    )) as StoredRow[];
    if (rows.length === 0) return;
    const listed = rows.map((row) => ({ row, ...listingOf(row.event) }));
    await queryRunner.query(
      `UPDATE decision_records AS record
          SET subject_kind = filled.subject_kind, subject_id = filled.subject_id, action = filled.action, decided_at = filled.decided_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
              AS filled (account_id, environment, score_id, subject_kind, subject_id, action, decided_at)
        WHERE record.account_id = filled.account_id AND record.environment = filled.environment AND record.score_id = filled.score_id`,
      [
        listed.map(({ row }) => row.account_id),
        listed.map(({ row }) => row.environment),
        listed.map(({ row }) => row.score_id),
        listed.map((item) => item.subjectKind),
        listed.map((item) => item.subjectId),
        listed.map((item) => item.action),
        listed.map(({ row }) => row.recorded_ms),
      ],
    );
    const last = rows[rows.length - 1];
    after = [last.account_id, last.environment, last.score_id];
    if (rows.length < BACKFILL_BATCH) return;
  }
}

/** The subject and action of a stored event, as the scorer recorded them; null where absent or unreadable. */
function listingOf(eventText: string): { subjectKind: string | null; subjectId: string | null; action: string | null } {
  let event: { subject?: { kind?: unknown; id?: unknown }; recommendation?: { action?: unknown } } | null;
  try {
    event = JSON.parse(eventText) as typeof event;
  } catch {
    event = null;
  }
  const kind = event?.subject?.kind;
  const id = event?.subject?.id;
  const action = event?.recommendation?.action;
  // PostgreSQL text holds no NUL character: such an id (refused by the API since) is not listed by subject.
  const subjectKnown = (kind === 'customer' || kind === 'supplier') && typeof id === 'string' && !id.includes('\u0000');
  return {
    subjectKind: subjectKnown ? kind : null,
    subjectId: subjectKnown ? id : null,
    action: typeof action === 'string' ? action : null,
  };
}
