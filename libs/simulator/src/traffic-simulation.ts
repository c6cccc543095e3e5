import { GENUINE_DEVICES, MARKET_WEIGHTS } from './catalogue';
import { ClientSdkTraffic } from './client-sdk/client-sdk-traffic';
import { Commerce } from './commerce';
import { EmailBook, type SupplierAccount } from './entities';
import { FRAUD_MIX, accountsPerActor } from './fraud/fraud-mix';
import { FRAUD_STARTERS } from './fraud/fraud-starters';
import { GenuineCustomer, WELCOME_VOUCHERS } from './genuine-customer';
import { voucherRequest } from './payloads/order-payloads';
import { FRAUD_KINDS, type FraudKind, type TrafficRecord, type TruthRecord } from './traffic-record';
import { DAY_MS, HOUR_MS, type Marketplace, World, type WorldStats } from './world';
import { checkFraudMix } from './fraud-mix-check';

export interface SimulationOptions {
  /** The same seed and options give the same records, byte for byte. */
  seed: string;
  /** Customer accounts in the run, fraudulent ones included. */
  customers: number;
  /** Days of traffic. */
  days: number;
  /** Share of the customers that are fraudulent (rings count each account). */
  fraudRate: number;
  /** Event time of the first day, epoch milliseconds (UTC). */
  start: number;
  /** Days after the traffic during which the back office's later findings (chargebacks, labels) are still emitted. */
  settleDays: number;
  /**
   * Relative weights of the fraud kinds among the actors drawn. When given, it is the whole mix:
   * a kind it does not name is not planted (to evaluate on a mix the model was not tuned on).
   */
  fraudMix: Partial<Record<FraudKind, number>>;
  /**
   * The web SDK's client events (`POST /v2/client/events`) before each payment of the shoppers and
   * fraudsters whose browsers run it. Off, the other records are the same, byte for byte.
   */
  sdkTraffic: boolean;
}

export const DEFAULT_SIMULATION_OPTIONS: SimulationOptions = {
  seed: '1',
  customers: 1000,
  days: 28,
  fraudRate: 0.02,
  start: Date.UTC(2026, 0, 5),
  settleDays: 45,
  fraudMix: Object.fromEntries(FRAUD_MIX),
  sdkTraffic: true,
};

/** Options with defaults filled in; throws a RangeError naming the option that is out of range. */
export function simulationOptions(partial: Partial<SimulationOptions> = {}): SimulationOptions {
  const options = { ...DEFAULT_SIMULATION_OPTIONS, ...Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined)) };
  const check = (ok: boolean, message: string) => {
    if (!ok) throw new RangeError(message);
  };
  check(Number.isInteger(options.customers) && options.customers >= 10 && options.customers <= 10_000_000, 'customers must be an integer from 10 to 10,000,000');
  check(Number.isFinite(options.days) && options.days >= 1 && options.days <= 366, 'days must be from 1 to 366');
  check(Number.isFinite(options.fraudRate) && options.fraudRate >= 0 && options.fraudRate <= 0.5, 'fraud rate must be from 0 to 0.5');
  check(Number.isInteger(options.start) && options.start > 0, 'start must be a time after 1970');
  check(Number.isFinite(options.settleDays) && options.settleDays >= 0 && options.settleDays <= 365, 'settle days must be from 0 to 365');
  checkFraudMix(options.fraudMix, FRAUD_KINDS, 'kind', check);
  return { ...options, seed: String(options.seed), fraudMix: { ...options.fraudMix }, sdkTraffic: options.sdkTraffic !== false };
}

/** Single-account kinds, in the order the last actor's kind is drawn from when the budget is too small for a ring. */
const SINGLE_ACCOUNT_KINDS: readonly FraudKind[] = ['drifting-fraud', 'account-takeover', 'refund-abuse'];

const EXISTING_CUSTOMER_SHARE = 0.6;

/**
 * The traffic of a marketplace over weeks of event time, with planted fraud. Iterate `records()`
 * once: records come in event-time order, generated as they are due (memory grows with the
 * active actors, not with the traffic). `truth()` and `stats()` are complete after it.
 */
export class TrafficSimulation {
  readonly options: SimulationOptions;
  private readonly world: World;
  private consumed = false;

  constructor(options: Partial<SimulationOptions> = {}) {
    this.options = simulationOptions(options);
    const { seed, start, days, settleDays } = this.options;
    this.world = new World(seed, start, days, settleDays);
  }

  *records(): Generator<TrafficRecord> {
    if (this.consumed) throw new Error('a simulation runs once; create another for a second pass');
    this.consumed = true;
    this.plan();
    yield* this.world.run();
  }

  /** One record per fraudulent actor (complete once `records()` is exhausted). */
  truth(): TruthRecord[] {
    return this.world.truth();
  }

  stats(): WorldStats & { fraudCustomers: number } {
    return { ...this.world.stats(), fraudCustomers: new Set(this.truth().flatMap((truth) => truth.customerIds)).size };
  }

  private plan(): void {
    const world = this.world;
    const suppliers = new Map<string, SupplierAccount[]>();
    const marketplace: Marketplace = {
      world,
      suppliersOf: (country, type) => {
        const key = `${country}:${type}`;
        let pool = suppliers.get(key);
        if (!pool) suppliers.set(key, (pool = []));
        return pool;
      },
      takeoverCandidates: [],
      referralCodes: [],
    };
    const commerce = new Commerce(marketplace, this.options.sdkTraffic ? new ClientSdkTraffic(world) : undefined);
    this.planVouchers();
    this.planSuppliers(commerce);
    const takeovers = this.planFraud(commerce);
    const fraudAccounts = Math.round(this.options.customers * this.options.fraudRate);
    const genuine = this.options.customers - (fraudAccounts - takeovers);
    const existing = Math.round(genuine * EXISTING_CUSTOMER_SHARE);
    const emails = new EmailBook();
    const clock = world.clock;
    this.arrivals(commerce, emails, existing, 0, clock.activityAt(Math.min(world.trafficEnd, world.start + 14 * DAY_MS)), false, 'existing');
    this.arrivals(commerce, emails, genuine - existing, 0, clock.activityAt(world.trafficEnd - HOUR_MS), true, 'new');
  }

  private planVouchers(): void {
    const world = this.world;
    world.traffic(world.start, () => {
      for (const voucher of WELCOME_VOUCHERS) {
        world.emit(world.now, '/v2/voucher', voucherRequest(world.now, { ...voucher, expiry: world.horizon + 60 * DAY_MS, campaign: 'welcome' }));
      }
    });
  }

  private planSuppliers(commerce: Commerce): void {
    const world = this.world;
    const random = world.random.derive('suppliers');
    for (const [market, weight] of MARKET_WEIGHTS) {
      const share = (this.options.customers * weight) / 100;
      for (const type of ['courier', 'seller'] as const) {
        const count = Math.max(2, Math.round(share / (type === 'courier' ? 60 : 150)));
        for (let index = 0; index < count; index += 1) {
          const supplierRandom = random.derive(`${market.country}:${type}:${index}`);
          const isNew = index >= 2 && supplierRandom.chance(0.15);
          const firstAt = isNew ? world.start + supplierRandom.between(0, world.trafficEnd - world.start) : world.start + supplierRandom.between(0, 2 * DAY_MS);
          const registeredAt = isNew ? Math.round(firstAt) : world.start - supplierRandom.int(30, 700) * DAY_MS;
          world.traffic(firstAt, () => {
            const supplier = commerce.newSupplier(supplierRandom, market, type, registeredAt, (deviceRandom) => commerce.deviceFor(deviceRandom, deviceRandom.weighted(GENUINE_DEVICES), market));
            commerce.startGenuineSupplier(supplier, supplierRandom, isNew, world.now);
          });
        }
      }
    }
  }

  /** Plans the fraudulent actors until their accounts reach the fraud rate; returns how many are takeovers (of genuine accounts). */
  private planFraud(commerce: Commerce): number {
    const world = this.world;
    const random = world.random.derive('fraud-plan');
    let budget = Math.round(this.options.customers * this.options.fraudRate);
    let takeovers = 0;
    const latestStart = Math.max(world.start, world.trafficEnd - 2 * DAY_MS);
    // In FRAUD_MIX's order and without the zero weights, so the default mix draws as it always did.
    const mix = FRAUD_MIX.map(([kind]) => [kind, this.options.fraudMix[kind] ?? 0] as const).filter(([, weight]) => weight > 0);
    const singleAccountKinds = SINGLE_ACCOUNT_KINDS.filter((kind) => (this.options.fraudMix[kind] ?? 0) > 0);
    while (budget > 0) {
      let kind = random.weighted(mix);
      let accounts = accountsPerActor(kind, random);
      if (accounts > budget) {
        // The last accounts: a single-account actor of the mix, else a smaller ring of the kind drawn.
        if (singleAccountKinds.length > 0) {
          kind = random.pick(singleAccountKinds);
          accounts = 1;
        } else {
          accounts = budget;
        }
      }
      budget -= accounts;
      if (kind === 'account-takeover') takeovers += 1;
      const actor = world.fraudActor(kind);
      const actorRandom = random.derive(actor.actorId);
      const market = actorRandom.weighted(MARKET_WEIGHTS);
      // Takeovers need victims with a history: not in the first days.
      const earliest = kind === 'account-takeover' ? Math.min(latestStart, world.start + 3 * DAY_MS) : world.start;
      const startAt = earliest + actorRandom.between(0, latestStart - earliest);
      world.traffic(startAt, () => FRAUD_STARTERS[kind](commerce, actorRandom, actor, market, accounts));
    }
    return takeovers;
  }

  /**
   * `count` customers arriving between two points of activity time, in order: sorted uniforms
   * drawn one at a time (the next is the minimum of the remaining ones), so the arrivals are
   * streamed rather than planned up front.
   */
  private arrivals(commerce: Commerce, emails: EmailBook, count: number, fromUnits: number, toUnits: number, isNew: boolean, label: string): void {
    const world = this.world;
    const random = world.random.derive(`arrivals:${label}`);
    let remaining = count;
    let position = 0;
    let index = 0;
    const scheduleNext = () => {
      if (remaining <= 0) return;
      position = 1 - (1 - position) * Math.pow(1 - random.next(), 1 / remaining);
      remaining -= 1;
      world.traffic(world.clock.timeAt(fromUnits + position * (toUnits - fromUnits)), () => {
        const customerRandom = world.random.derive(`${label}:${index}`);
        index += 1;
        new GenuineCustomer(commerce, customerRandom, customerRandom.weighted(MARKET_WEIGHTS), emails, isNew).start();
        scheduleNext();
      });
    };
    scheduleNext();
  }
}


