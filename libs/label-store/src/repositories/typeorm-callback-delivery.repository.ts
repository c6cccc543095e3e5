import type {
  CallbackAttempt,
  CallbackAttemptOutcome,
  CallbackClaim,
  CallbackDelivery,
  CallbackDeliveryPage,
  CallbackDeliveryRepository,
  CallbackDeliveryStatus,
  CallbackTenant,
  DueCallbackDelivery,
  NewCallbackDelivery,
  StoredCallbackAttempt,
} from '@ringfence/callbacks';
import { classifiedAttempt } from '@ringfence/callbacks';
import type { Environment } from '@ringfence/contracts';
import type { DataSource } from 'typeorm';
import { queryRows } from '@ringfence/persistence';

interface DeliveryRow {
  delivery_id: string;
  account_id: string;
  environment: Environment;
  source_event_id: string;
  url: string;
  body: string;
  status: CallbackDeliveryStatus;
  attempts: StoredCallbackAttempt[];
  next_attempt_at: Date | null;
  changed_at: Date;
  created_at: Date;
}

interface DueRow {
  delivery_id: string;
  account_id: string;
  environment: Environment;
  body: string;
  changed_at: Date;
  attempt_count: number;
}

// A redelivered label event finds its delivery there and adds nothing.
const RECORD = `
  INSERT INTO callback_deliveries (delivery_id, account_id, environment, source_event_id, url, body, status, attempts, next_attempt_at, changed_at, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, 'pending', '[]'::jsonb, $7, $8, $7)
  ON CONFLICT (account_id, environment, source_event_id) DO NOTHING
  RETURNING delivery_id`;

// Claims and leases in one statement: rows another dispatcher is claiming at this moment are
// skipped (SKIP LOCKED) rather than waited for, and the lease keeps them from the next claims.
// Every account's rows, shared out round-robin (ADR-0016): each account's due rows are
// ranked earliest first, an account gets no more than its free slots ($4 less its attempts in
// flight, $5: {accountId: count}), and the claim takes every account's first before anyone's
// second. The partial index on pending rows' next_attempt_at finds the due rows.
const CLAIM_DUE = `
  UPDATE callback_deliveries d SET next_attempt_at = $2
   WHERE d.sequence IN (
     SELECT sequence FROM callback_deliveries
      WHERE sequence IN (
        SELECT sequence FROM (
          SELECT sequence, next_attempt_at, account_id,
                 row_number() OVER (PARTITION BY account_id ORDER BY next_attempt_at, sequence) AS rank_in_account
            FROM callback_deliveries
           WHERE status = 'pending' AND next_attempt_at <= $1) ranked
         WHERE rank_in_account <= $4 - COALESCE(($5::jsonb ->> account_id)::int, 0)
         ORDER BY rank_in_account, next_attempt_at
         LIMIT $3)
      FOR UPDATE SKIP LOCKED)
  RETURNING d.delivery_id, d.account_id, d.environment, d.body, d.changed_at, jsonb_array_length(d.attempts)::int AS attempt_count`;

const NEXT_DUE = `SELECT min(next_attempt_at) AS next_attempt_at FROM callback_deliveries WHERE status = 'pending' AND account_id NOT IN (SELECT jsonb_array_elements_text($1::jsonb))`;

// The attempt is appended in the same statement that sets the outcome; only a pending delivery
// takes it (one that ended meanwhile stays as it ended).
const RECORD_ATTEMPT = `
  UPDATE callback_deliveries
     SET attempts = attempts || jsonb_build_array($4::jsonb), status = $5, next_attempt_at = $6, url = COALESCE($7::text, url)
   WHERE account_id = $1 AND environment = $2 AND delivery_id = $3 AND status = 'pending'`;

const CURSOR = `SELECT sequence FROM callback_deliveries WHERE account_id = $1 AND environment = $2 AND delivery_id = $3`;

const PAGE = `
  SELECT delivery_id, account_id, environment, source_event_id, url, body, status, attempts, next_attempt_at, changed_at, created_at
    FROM callback_deliveries
   WHERE account_id = $1 AND environment = $2 AND ($3::bigint IS NULL OR sequence < $3::bigint)
   ORDER BY sequence DESC
   LIMIT $4`;

const toDate = (epochMillis: number) => new Date(epochMillis);

/** Review-callback deliveries in `callback_deliveries` (both modes; one statement per call). */
export class TypeOrmCallbackDeliveryRepository implements CallbackDeliveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async record(delivery: NewCallbackDelivery): Promise<boolean> {
    const rows = await queryRows<{ delivery_id: string }>(this.dataSource, RECORD, [
      delivery.deliveryId,
      delivery.accountId,
      delivery.environment,
      delivery.sourceEventId,
      delivery.url,
      delivery.body,
      toDate(delivery.createdAt),
      toDate(delivery.changedAt),
    ]);
    return rows.length === 1;
  }

  async claimDue({ now, leaseUntil, limit, perAccountLimit, inFlightByAccount }: CallbackClaim): Promise<DueCallbackDelivery[]> {
    const inFlight = JSON.stringify(Object.fromEntries(inFlightByAccount));
    const rows = await queryRows<DueRow>(this.dataSource, CLAIM_DUE, [toDate(now), toDate(leaseUntil), limit, perAccountLimit, inFlight]);
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      accountId: row.account_id,
      environment: row.environment,
      body: row.body,
      changedAt: row.changed_at.getTime(),
      attemptCount: row.attempt_count,
    }));
  }

  async nextAttemptDueAt(exceptAccounts: readonly string[]): Promise<number | null> {
    const [row] = await queryRows<{ next_attempt_at: Date | null }>(this.dataSource, NEXT_DUE, [JSON.stringify(exceptAccounts)]);
    return row?.next_attempt_at?.getTime() ?? null;
  }

  async recordAttempt({ accountId, environment }: CallbackTenant, deliveryId: string, attempt: CallbackAttempt, outcome: CallbackAttemptOutcome): Promise<void> {
    await queryRows(this.dataSource, RECORD_ATTEMPT, [
      accountId,
      environment,
      deliveryId,
      JSON.stringify({ at: attempt.at, httpStatus: attempt.httpStatus, error: attempt.error, durationMs: attempt.durationMs }),
      outcome.status,
      outcome.nextAttemptAt === null ? null : toDate(outcome.nextAttemptAt),
      outcome.url,
    ]);
  }

  async list({ accountId, environment }: CallbackTenant, page: CallbackDeliveryPage): Promise<CallbackDelivery[] | null> {
    let before: string | null = null;
    if (page.before !== undefined) {
      const [cursor] = await queryRows<{ sequence: string }>(this.dataSource, CURSOR, [accountId, environment, page.before]);
      if (cursor === undefined) return null;
      before = cursor.sequence;
    }
    const rows = await queryRows<DeliveryRow>(this.dataSource, PAGE, [accountId, environment, before, page.limit]);
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      accountId: row.account_id,
      environment: row.environment,
      sourceEventId: row.source_event_id,
      url: row.url,
      body: row.body,
      status: row.status,
      // Attempts recorded before error classes show their class, not the socket's message they kept.
      attempts: row.attempts.map(classifiedAttempt),
      nextAttemptAt: row.next_attempt_at?.getTime() ?? null,
      changedAt: row.changed_at.getTime(),
      createdAt: row.created_at.getTime(),
    }));
  }
}
