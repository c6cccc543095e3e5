import { ActivityClock } from './activity-clock';
import type { CustomerAccount, SupplierAccount } from './entities';
import { TimeOrderedHeap } from './min-heap';
import { SeededRandom } from './seeded-random';
import type { FraudKind, TrafficRecord, TruthRecord } from './traffic-record';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

interface Task {
  time: number;
  run: () => void;
}

/** What one fraudulent actor did, collected while it acts; written out as its truth record at the end. */
export class FraudActor {
  began?: number;
  readonly customerIds = new Set<string>();
  readonly supplierIds = new Set<string>();
  readonly deviceIds = new Set<string>();
  readonly instrumentIds = new Set<string>();
  readonly transactionIds = new Set<string>();
  readonly refundIds = new Set<string>();
  readonly payoutIds = new Set<string>();
  readonly voucherCodes = new Set<string>();
  readonly detail: Record<string, unknown> = {};

  constructor(
    readonly kind: FraudKind,
    readonly actorId: string,
  ) {}

  /** Notes a fraudulent act at `time`: the earliest one is when the fraud began. */
  acted(time: number): void {
    if (this.began === undefined || time < this.began) this.began = time;
  }

  truth(): TruthRecord | undefined {
    if (this.began === undefined) return undefined;
    return {
      kind: this.kind,
      actorId: this.actorId,
      fraudBeganAt: this.began,
      fraudBegan: new Date(this.began).toISOString(),
      customerIds: [...this.customerIds],
      supplierIds: [...this.supplierIds],
      deviceIds: [...this.deviceIds],
      instrumentIds: [...this.instrumentIds],
      transactionIds: [...this.transactionIds],
      refundIds: [...this.refundIds],
      payoutIds: [...this.payoutIds],
      voucherCodes: [...this.voucherCodes],
      detail: this.detail,
    };
  }
}

export interface WorldStats {
  records: number;
  recordsByPath: Record<string, number>;
  customers: number;
  suppliers: number;
  /** The most tasks (actors' next steps) and emitted-but-not-yet-due records held at once. */
  peakScheduledTasks: number;
  peakPendingRecords: number;
}

/**
 * The discrete-event engine. Actors schedule tasks at event times; a task runs when the clock
 * reaches it and may emit requests at its own time or later (a payment's authorisation a few
 * seconds on, a chargeback weeks on). Emitted records wait in a time-ordered outbox and leave it
 * only once no task can still emit anything earlier, so the output is in time order while only
 * the actors' next steps and the not-yet-due records are in memory.
 */
export class World {
  readonly clock: ActivityClock;
  readonly random: SeededRandom;
  /** Traffic (sessions, orders, payouts) happens in [start, trafficEnd); labels and chargebacks until horizon. */
  readonly trafficEnd: number;
  readonly horizon: number;
  now: number;

  private readonly tasks = new TimeOrderedHeap<Task>();
  private readonly outbox = new TimeOrderedHeap<TrafficRecord>();
  private readonly fraudActors: FraudActor[] = [];
  private readonly counters = new Map<string, number>();
  private readonly idTag: string;
  private emitted = 0;
  private readonly byPath = new Map<string, number>();
  customersCreated = 0;
  suppliersCreated = 0;

  constructor(
    seed: string,
    readonly start: number,
    days: number,
    settleDays: number,
  ) {
    this.random = new SeededRandom(`ringfence-simulator:${seed}`);
    this.trafficEnd = start + days * DAY_MS;
    this.horizon = this.trafficEnd + settleDays * DAY_MS;
    this.clock = new ActivityClock(start, this.horizon);
    this.now = start;
    // Ids differ between seeds, so two simulations sent to one account do not collide.
    this.idTag = this.random.derive('ids').chars(3);
  }

  /** A unique id: prefix, the run's tag, and a per-prefix counter. */
  id(prefix: string): string {
    const next = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, next);
    return `${prefix}-${this.idTag}${next.toString(36).padStart(5, '0')}`;
  }

  /** Runs `run` at `time` if that is before the end of the traffic window (customers' and suppliers' own actions). */
  traffic(time: number, run: () => void): void {
    if (time < this.trafficEnd) this.tasks.push({ time: Math.max(Math.round(time), this.now), run });
  }

  /** Runs `run` at `time` if that is before the horizon (what the back office does later: chargebacks, labels). */
  later(time: number, run: () => void): void {
    if (time <= this.horizon) this.tasks.push({ time: Math.max(Math.round(time), this.now), run });
  }

  emit(time: number, path: string, body: Record<string, unknown>, query?: Record<string, string>): void {
    if (time < this.now || !Number.isInteger(time)) throw new Error(`cannot emit at ${time}: times are integers, not before the clock (${this.now})`);
    if (time > this.horizon) return;
    this.outbox.push({ path, ...(query ? { query } : {}), time, body });
  }

  fraudActor(kind: FraudKind): FraudActor {
    const actor = new FraudActor(kind, this.id(`fraud-${kind}`));
    this.fraudActors.push(actor);
    return actor;
  }

  *run(): Generator<TrafficRecord> {
    for (;;) {
      const task = this.tasks.pop();
      if (task === undefined) break;
      yield* this.release(task.time);
      this.now = task.time;
      task.run();
    }
    yield* this.release(Number.POSITIVE_INFINITY);
  }

  truth(): TruthRecord[] {
    return this.fraudActors
      .map((actor) => actor.truth())
      .filter((truth): truth is TruthRecord => truth !== undefined)
      .sort((left, right) => left.fraudBeganAt - right.fraudBeganAt || (left.actorId < right.actorId ? -1 : 1));
  }

  stats(): WorldStats {
    return {
      records: this.emitted,
      recordsByPath: Object.fromEntries([...this.byPath].sort(([left], [right]) => (left < right ? -1 : 1))),
      customers: this.customersCreated,
      suppliers: this.suppliersCreated,
      peakScheduledTasks: this.tasks.peakSize,
      peakPendingRecords: this.outbox.peakSize,
    };
  }

  private *release(until: number): Generator<TrafficRecord> {
    for (let next = this.outbox.peek(); next !== undefined && next.time <= until; next = this.outbox.peek()) {
      this.outbox.pop();
      this.emitted += 1;
      const pathKind = next.path.startsWith('/v2/customer/') ? '/v2/customer/:id/labels' : next.path.startsWith('/v2/supplier/') ? '/v2/supplier/:id/labels' : next.path;
      this.byPath.set(pathKind, (this.byPath.get(pathKind) ?? 0) + 1);
      yield next;
    }
  }
}

/** The marketplace's shared state that actors look each other up in (bounded). */
export interface Marketplace {
  world: World;
  suppliersOf(country: string, type: 'courier' | 'seller'): SupplierAccount[];
  /** Genuine customers with a saved card: the takeover targets (a bounded sample). */
  takeoverCandidates: CustomerAccount[];
  /** Genuine referral codes customers share with friends (a bounded list). */
  referralCodes: Array<{ code: string; currency: string; value: number }>;
}
