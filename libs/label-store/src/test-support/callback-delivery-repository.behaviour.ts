import { randomUUID } from 'node:crypto';
import type { AccountRepository } from '@ringfence/accounts';
import type { CallbackAttempt, CallbackClaim, CallbackDeliveryRepository, CallbackTenant, NewCallbackDelivery } from '@ringfence/callbacks';
import { buildAccount } from '@ringfence/persistence/testing';

/** A time well after any other test's rows, so a test's own claims see only what it made due. */
let clock = Date.UTC(2030, 0, 1);
const laterThanBefore = () => (clock += 3_600_000);

function buildDelivery(tenant: CallbackTenant, overrides: Partial<NewCallbackDelivery> = {}): NewCallbackDelivery {
  const createdAt = overrides.createdAt ?? laterThanBefore();
  return {
    deliveryId: `dlv_${randomUUID().replaceAll('-', '')}`,
    ...tenant,
    sourceEventId: randomUUID(),
    url: 'https://hooks.merchant.example/ringfence',
    body: JSON.stringify({ event: 'label.changed', subjectId: `cus-${randomUUID()}` }),
    changedAt: createdAt - 5,
    createdAt,
    ...overrides,
  };
}

const attemptAt = (at: number, overrides: Partial<CallbackAttempt> = {}): CallbackAttempt => ({ at, httpStatus: 500, error: 'status', durationMs: 12, ...overrides });

/** A claim with room for everything: what a test of other rules than the shares makes. */
const claimAll = (now: number, leaseUntil: number, limit: number, overrides: Partial<CallbackClaim> = {}): CallbackClaim => ({
  now,
  leaseUntil,
  limit,
  perAccountLimit: 10_000,
  inFlightByAccount: new Map(),
  ...overrides,
});

/** What any CallbackDeliveryRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeACallbackDeliveryRepository(repositories: () => { accounts: AccountRepository; deliveries: CallbackDeliveryRepository }): void {
  const deliveries = () => repositories().deliveries;

  async function newTenant(environment: CallbackTenant['environment'] = 'live'): Promise<CallbackTenant> {
    const account = buildAccount();
    await repositories().accounts.insert(account);
    return { accountId: account.id, environment };
  }

  /** Claims everything due at `now` and keeps only the given deliveries (other tests' rows may be due too). */
  async function claimOwn(now: number, ids: string[], leaseUntil = now + 60_000) {
    const claimed = await deliveries().claimDue(claimAll(now, leaseUntil, 10_000));
    return claimed.filter((delivery) => ids.includes(delivery.deliveryId));
  }

  /** Leases away, until long after every test's times, what is due at `now`: rows made due early for a test stay out of the others'. */
  async function setAsideDueAt(now: number) {
    await deliveries().claimDue(claimAll(now, Date.UTC(2100, 0, 1), 10_000));
  }

  it('records a pending delivery, due at once, with no attempt', async () => {
    const tenant = await newTenant();
    const delivery = buildDelivery(tenant);

    await expect(deliveries().record(delivery)).resolves.toBe(true);

    await expect(deliveries().list(tenant, { limit: 10 })).resolves.toEqual([
      { ...delivery, status: 'pending', attempts: [], nextAttemptAt: delivery.createdAt },
    ]);
  });

  it('records a delivery once per label event of the tenant', async () => {
    const tenant = await newTenant();
    const delivery = buildDelivery(tenant);
    await deliveries().record(delivery);

    await expect(deliveries().record({ ...delivery, deliveryId: `${delivery.deliveryId}x` })).resolves.toBe(false);

    await expect(deliveries().list(tenant, { limit: 10 })).resolves.toHaveLength(1);
  });

  it('lists newest first, a page at a time, each page before the last delivery of the previous', async () => {
    const tenant = await newTenant();
    const recorded = [buildDelivery(tenant), buildDelivery(tenant), buildDelivery(tenant)];
    for (const delivery of recorded) await deliveries().record(delivery);
    const ids = (page: { deliveryId: string }[] | null) => page?.map((delivery) => delivery.deliveryId);

    const first = await deliveries().list(tenant, { limit: 2 });
    const second = await deliveries().list(tenant, { limit: 2, before: first![1].deliveryId });

    expect(ids(first)).toEqual([recorded[2].deliveryId, recorded[1].deliveryId]);
    expect(ids(second)).toEqual([recorded[0].deliveryId]);
    await expect(deliveries().list(tenant, { limit: 2, before: recorded[0].deliveryId })).resolves.toEqual([]);
  });

  it('answers null for a cursor that names no delivery of the tenant', async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const delivery = buildDelivery(other);
    await deliveries().record(delivery);

    await expect(deliveries().list(tenant, { limit: 10, before: 'dlv_unknown' })).resolves.toBeNull();
    await expect(deliveries().list(tenant, { limit: 10, before: delivery.deliveryId })).resolves.toBeNull();
  });

  it("keeps each tenant's deliveries to itself: another account, or the other data set of the account, sees none", async () => {
    const tenant = await newTenant('live');
    const sandbox = { ...tenant, environment: 'test' as const };
    const other = await newTenant('live');
    await deliveries().record(buildDelivery(tenant));
    const sameEvent = buildDelivery(sandbox);
    await deliveries().record(sameEvent);

    await expect(deliveries().list(other, { limit: 10 })).resolves.toEqual([]);
    await expect(deliveries().list(sandbox, { limit: 10 })).resolves.toEqual([expect.objectContaining({ deliveryId: sameEvent.deliveryId, environment: 'test' })]);
    await expect(deliveries().list(tenant, { limit: 10 })).resolves.toHaveLength(1);
  });

  it('claims the due pending deliveries of every account, moving them to the lease so the next claim skips them', async () => {
    const first = await newTenant();
    const second = await newTenant('test');
    const due = [buildDelivery(first), buildDelivery(second)];
    for (const delivery of due) await deliveries().record(delivery);
    const ids = due.map((delivery) => delivery.deliveryId);
    const now = laterThanBefore();

    const claimed = await claimOwn(now, ids);

    expect(claimed.map((delivery) => delivery.deliveryId).sort()).toEqual([...ids].sort());
    expect(claimed.find((delivery) => delivery.deliveryId === due[1].deliveryId)).toEqual({
      deliveryId: due[1].deliveryId,
      accountId: second.accountId,
      environment: 'test',
      body: due[1].body,
      changedAt: due[1].changedAt,
      attemptCount: 0,
    });
    await expect(claimOwn(now, ids)).resolves.toEqual([]);
    await expect(deliveries().list(first, { limit: 1 })).resolves.toEqual([expect.objectContaining({ nextAttemptAt: now + 60_000 })]);
    // The lease over (the claiming process died mid-attempt), they are due again.
    await expect(claimOwn(now + 60_000, ids)).resolves.toHaveLength(2);
  });

  it('claims nothing not yet due, and at most the limit: the earliest due', async () => {
    const tenant = await newTenant();
    // Times before every other test's rows: nothing of theirs is due at these.
    const early = Date.UTC(2001, 0, 1);
    const recorded = [0, 1, 2].map((offset) => buildDelivery(tenant, { createdAt: early + offset * 1_000 }));
    for (const delivery of [...recorded].reverse()) await deliveries().record(delivery);

    await expect(deliveries().claimDue(claimAll(early - 1, early + 60_000, 10))).resolves.toEqual([]);
    const claimed = await deliveries().claimDue(claimAll(early + 5_000, early + 60_000, 2));

    expect(claimed.map((delivery) => delivery.deliveryId).sort()).toEqual([recorded[0].deliveryId, recorded[1].deliveryId].sort());
  });

  it('appends each attempt and sets the outcome; an ended delivery takes no more attempts and is never claimed', async () => {
    const tenant = await newTenant();
    const delivery = buildDelivery(tenant);
    await deliveries().record(delivery);
    const retryAt = delivery.createdAt + 1_000;

    const timedOut = { httpStatus: null, error: 'timeout' as const };
    await deliveries().recordAttempt(tenant, delivery.deliveryId, attemptAt(delivery.createdAt, timedOut), { status: 'pending', nextAttemptAt: retryAt, url: delivery.url });
    await deliveries().recordAttempt(tenant, delivery.deliveryId, attemptAt(retryAt, { httpStatus: 204, error: null }), { status: 'delivered', nextAttemptAt: null, url: 'https://hooks.merchant.example/moved' });
    await deliveries().recordAttempt(tenant, delivery.deliveryId, attemptAt(retryAt + 1, { httpStatus: 500 }), { status: 'failed', nextAttemptAt: null, url: 'https://elsewhere.example/' });

    await expect(deliveries().list(tenant, { limit: 1 })).resolves.toEqual([
      expect.objectContaining({
        status: 'delivered',
        nextAttemptAt: null,
        // Where the last attempt that was sent went.
        url: 'https://hooks.merchant.example/moved',
        attempts: [
          { at: delivery.createdAt, ...timedOut, durationMs: 12 },
          { at: retryAt, httpStatus: 204, error: null, durationMs: 12 },
        ],
      }),
    ]);
    await expect(claimOwn(laterThanBefore(), [delivery.deliveryId])).resolves.toEqual([]);
  });

  it('counts the recorded attempts of a claimed delivery, for its backoff', async () => {
    const tenant = await newTenant();
    const delivery = buildDelivery(tenant);
    await deliveries().record(delivery);
    await deliveries().recordAttempt(tenant, delivery.deliveryId, attemptAt(delivery.createdAt), { status: 'pending', nextAttemptAt: delivery.createdAt + 10, url: null });
    await deliveries().recordAttempt(tenant, delivery.deliveryId, attemptAt(delivery.createdAt + 10), { status: 'pending', nextAttemptAt: delivery.createdAt + 30, url: null });

    const [claimed] = await claimOwn(laterThanBefore(), [delivery.deliveryId]);

    expect(claimed.attemptCount).toBe(2);
  });

  it("records nothing through another tenant's name", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const delivery = buildDelivery(tenant);
    await deliveries().record(delivery);

    await deliveries().recordAttempt(other, delivery.deliveryId, attemptAt(delivery.createdAt, { httpStatus: 200 }), { status: 'delivered', nextAttemptAt: null, url: null });

    await expect(deliveries().list(tenant, { limit: 1 })).resolves.toEqual([expect.objectContaining({ status: 'pending', attempts: [] })]);
  });

  it('tells when the earliest pending delivery is due', async () => {
    const tenant = await newTenant();
    const delivery = buildDelivery(tenant);
    await deliveries().record(delivery);

    const next = await deliveries().nextAttemptDueAt([]);

    // Other tests' pending rows may be due earlier; none is due later than this one.
    expect(next).not.toBeNull();
    expect(next!).toBeLessThanOrEqual(delivery.createdAt);
  });

  it('tells when the earliest pending delivery is due leaving out the accounts named', async () => {
    // Times before every other test's rows.
    const early = Date.UTC(2000, 0, 1);
    const busy = await newTenant();
    const other = await newTenant();
    await deliveries().record(buildDelivery(busy, { createdAt: early }));
    await deliveries().record(buildDelivery(other, { createdAt: early + 1_000 }));

    await expect(deliveries().nextAttemptDueAt([])).resolves.toBe(early);
    await expect(deliveries().nextAttemptDueAt([busy.accountId])).resolves.toBe(early + 1_000);
    await setAsideDueAt(early + 1_000);
  });

  it('shares a claim out round-robin: every account its earliest first, none past its free slots', async () => {
    // Times before every other test's rows (and after the test above's, which stay due).
    const early = Date.UTC(2000, 6, 1);
    const backlog = await newTenant();
    const sandboxOfBacklog = { ...backlog, environment: 'test' as const };
    const quiet = await newTenant();
    const busy = await newTenant();
    const backlogged = Array.from({ length: 5 }, (_, index) => buildDelivery(index % 2 === 0 ? backlog : sandboxOfBacklog, { createdAt: early + index }));
    const quietOne = buildDelivery(quiet, { createdAt: early + 100 });
    const busyOne = buildDelivery(busy, { createdAt: early - 100 });
    for (const delivery of [...backlogged, quietOne, busyOne]) await deliveries().record(delivery);
    const ids = [...backlogged, quietOne, busyOne].map((delivery) => delivery.deliveryId);

    // Three free slots: the backlog's earliest and the quiet account's one, but not the backlog's
    // second although it is due earlier; the busy account has its 2 of 2 in flight.
    const claim = claimAll(early + 1_000, early + 60_000, 3, { perAccountLimit: 2, inFlightByAccount: new Map([[backlog.accountId, 1], [busy.accountId, 2]]) });
    const claimed = (await deliveries().claimDue(claim)).filter((delivery) => ids.includes(delivery.deliveryId));

    // The backlog's two data sets share its slots: it is the account's share.
    expect(claimed.map((delivery) => delivery.deliveryId).sort()).toEqual([backlogged[0].deliveryId, quietOne.deliveryId].sort());
    await setAsideDueAt(early + 1_000);
  });

  it('shows an attempt recorded before error classes as a class, without its socket message', async () => {
    const tenant = await newTenant();
    const delivery = buildDelivery(tenant);
    await deliveries().record(delivery);
    const legacy = { at: delivery.createdAt, httpStatus: null, error: 'ECONNREFUSED: connect ECONNREFUSED 10.0.0.7:6379', durationMs: 12 };

    await deliveries().recordAttempt(tenant, delivery.deliveryId, legacy as unknown as CallbackAttempt, { status: 'pending', nextAttemptAt: delivery.createdAt + 10, url: null });

    const [listed] = (await deliveries().list(tenant, { limit: 1 }))!;
    expect(listed.attempts).toEqual([{ ...legacy, error: 'refused' }]);
  });

  it('gives each due delivery to one of two claims made at the same moment', async () => {
    const tenant = await newTenant();
    const recorded = Array.from({ length: 6 }, () => buildDelivery(tenant));
    for (const delivery of recorded) await deliveries().record(delivery);
    const ids = recorded.map((delivery) => delivery.deliveryId);
    const now = laterThanBefore();

    const [left, right] = await Promise.all([claimOwn(now, ids), claimOwn(now, ids)]);

    const claimed = [...left, ...right].map((delivery) => delivery.deliveryId);
    expect(claimed.sort()).toEqual([...ids].sort());
  });
}
