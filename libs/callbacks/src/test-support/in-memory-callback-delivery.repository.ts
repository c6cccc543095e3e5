import type {
  CallbackAttempt,
  CallbackAttemptOutcome,
  CallbackClaim,
  CallbackDelivery,
  CallbackDeliveryPage,
  CallbackDeliveryRepository,
  CallbackTenant,
  DueCallbackDelivery,
  NewCallbackDelivery,
} from '../callback-delivery';

/** Array-backed repository for domain and service tests; the real one is tested in libs/persistence. */
export class InMemoryCallbackDeliveryRepository implements CallbackDeliveryRepository {
  /** Oldest first, as recorded. */
  readonly rows: CallbackDelivery[] = [];

  async record(delivery: NewCallbackDelivery): Promise<boolean> {
    const duplicate = this.rows.some(
      (row) => row.accountId === delivery.accountId && row.environment === delivery.environment && row.sourceEventId === delivery.sourceEventId,
    );
    if (duplicate) return false;
    this.rows.push({ ...delivery, status: 'pending', attempts: [], nextAttemptAt: delivery.createdAt });
    return true;
  }

  async claimDue({ now, leaseUntil, limit, perAccountLimit, inFlightByAccount }: CallbackClaim): Promise<DueCallbackDelivery[]> {
    const due = this.rows
      .filter((row) => row.status === 'pending' && row.nextAttemptAt !== null && row.nextAttemptAt <= now)
      .sort((left, right) => (left.nextAttemptAt ?? 0) - (right.nextAttemptAt ?? 0));
    // Round-robin as the SQL does it: each account's earliest first, within its free slots.
    const rankInAccount = new Map<string, number>();
    const ranked = due.map((row) => {
      const rank = (rankInAccount.get(row.accountId) ?? 0) + 1;
      rankInAccount.set(row.accountId, rank);
      return { row, rank };
    });
    const claimed = ranked
      .filter(({ row, rank }) => rank <= perAccountLimit - (inFlightByAccount.get(row.accountId) ?? 0))
      .sort((left, right) => left.rank - right.rank || (left.row.nextAttemptAt ?? 0) - (right.row.nextAttemptAt ?? 0))
      .slice(0, limit)
      .map(({ row }) => row);
    for (const row of claimed) row.nextAttemptAt = leaseUntil;
    return claimed.map(({ deliveryId, accountId, environment, body, changedAt, attempts }) => ({
      deliveryId,
      accountId,
      environment,
      body,
      changedAt,
      attemptCount: attempts.length,
    }));
  }

  async nextAttemptDueAt(exceptAccounts: readonly string[]): Promise<number | null> {
    const due = this.rows.filter((row) => row.status === 'pending' && !exceptAccounts.includes(row.accountId)).map((row) => row.nextAttemptAt ?? Infinity);
    return due.length === 0 ? null : Math.min(...due);
  }

  async recordAttempt(tenant: CallbackTenant, deliveryId: string, attempt: CallbackAttempt, outcome: CallbackAttemptOutcome): Promise<void> {
    const row = this.rows.find((candidate) => candidate.deliveryId === deliveryId && candidate.accountId === tenant.accountId && candidate.environment === tenant.environment);
    if (row === undefined || row.status !== 'pending') return;
    row.attempts = [...row.attempts, attempt];
    row.status = outcome.status;
    row.nextAttemptAt = outcome.nextAttemptAt;
    if (outcome.url !== null) row.url = outcome.url;
  }

  async list(tenant: CallbackTenant, page: CallbackDeliveryPage): Promise<CallbackDelivery[] | null> {
    const own = this.rows.filter((row) => row.accountId === tenant.accountId && row.environment === tenant.environment).reverse();
    let start = 0;
    if (page.before !== undefined) {
      start = own.findIndex((row) => row.deliveryId === page.before) + 1;
      if (start === 0) return null;
    }
    return structuredClone(own.slice(start, start + page.limit));
  }
}
