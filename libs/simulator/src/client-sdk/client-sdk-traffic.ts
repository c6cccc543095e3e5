import type { CustomerAccount, SimDevice } from '../entities';
import type { SeededRandom } from '../seeded-random';
import type { FraudKind } from '../traffic-record';
import type { FraudActor, World } from '../world';
import { type SessionPlan, clientEventsRequest } from './client-events-payload';

/** The path the web SDK sends its batches to (publishable key). */
export const CLIENT_EVENTS_PATH = '/v2/client/events';

/** Each market's time zone, as its shoppers' browsers report it. */
const MARKET_TIME_ZONES: Record<string, string> = {
  GBR: 'Europe/London',
  IRL: 'Europe/Dublin',
  FRA: 'Europe/Paris',
  DEU: 'Europe/Berlin',
  ESP: 'Europe/Madrid',
  NLD: 'Europe/Amsterdam',
};
/** Where a fraudster's own browser says it is (the origins of catalogue's FRAUD_ORIGIN_IP_PREFIXES). */
const FRAUD_TIME_ZONES = ['Africa/Lagos', 'Europe/Bucharest', 'Europe/Moscow', 'Asia/Ho_Chi_Minh', 'Europe/Kyiv', 'America/Sao_Paulo'];
/** A genuine shopper abroad (or with a laptop set to another zone). */
const TRAVEL_TIME_ZONES = ['America/New_York', 'Asia/Dubai', 'Europe/Lisbon', 'Asia/Bangkok', 'Europe/Rome'];

/**
 * How an actor of a kind uses the checkout page, as the SDK sees it: the share of its actors whose
 * requests carry no SDK at all (a script posting to the merchant's server, a blocked script), of
 * bots (automated browsers, some hiding `navigator.webdriver`), of actors whose browser reports
 * their own time zone, and the chance that a payment's card number was pasted.
 */
interface KindHabits {
  noSdk: number;
  bot: number;
  ownTimeZone: number;
  cardPaste: number;
}

const FRAUD_HABITS: Record<FraudKind, KindHabits> = {
  'card-testing': { noSdk: 0.3, bot: 0.65, ownTimeZone: 0.5, cardPaste: 0.85 },
  'stolen-card': { noSdk: 0.25, bot: 0.15, ownTimeZone: 0.4, cardPaste: 0.55 },
  'account-takeover': { noSdk: 0.2, bot: 0.05, ownTimeZone: 0.7, cardPaste: 0.15 },
  'drifting-fraud': { noSdk: 0.3, bot: 0.05, ownTimeZone: 0.3, cardPaste: 0.3 },
  'promo-abuse': { noSdk: 0.15, bot: 0.1, ownTimeZone: 0.05, cardPaste: 0.1 },
  'referral-abuse': { noSdk: 0.15, bot: 0.1, ownTimeZone: 0.05, cardPaste: 0.1 },
  'refund-abuse': { noSdk: 0.15, bot: 0, ownTimeZone: 0.05, cardPaste: 0.05 },
  'fake-supplier': { noSdk: 0.15, bot: 0.05, ownTimeZone: 0.1, cardPaste: 0.1 },
};

/** Genuine shoppers: an ad blocker now and then, a card pasted from a password manager sometimes, a trip abroad. */
const GENUINE = { noSdk: 0.08, cardPaste: 0.04, otherPaste: 0.12, travel: 0.03 };

/** What an actor keeps from one payment to the next. */
interface ActorTraits {
  noSdk: boolean;
  bot: boolean;
  hidesWebdriver: boolean;
  timeZone: string | undefined;
}

/**
 * Bots and card testers try many cards in one long session, whose events the SDK sends in batches:
 * after the first, one payment in this many is preceded by a batch (the read model keeps the
 * device's last session and its pastes; the endpoint takes 60 calls a minute per device).
 */
const BATCH_EVERY = 4;

/**
 * The web SDK's traffic before each payment of the simulated marketplace: a `POST /v2/client/events`
 * batch (the session's page views, pastes, the checkout) naming the payment's `device.deviceId`,
 * sent at the moment of the payment's before-authorisation checkpoint and before it. Its random
 * streams are its own (derived per payment, device and actor from the run's seed), so turning it
 * off leaves every other record as it was.
 */
export class ClientSdkTraffic {
  private readonly root: SeededRandom;
  private readonly actors = new Map<string, ActorTraits & { batches: number }>();

  constructor(private readonly world: World) {
    this.root = world.random.derive('client-sdk');
  }

  /** Emits the session's batch for a payment about to be decided at `time`, if its device runs the SDK. */
  beforePayment(time: number, payment: { account: CustomerAccount; device: SimDevice; ipAddress: string; transactionId: string; fraud?: FraudActor }): void {
    const random = this.root.derive(`payment:${payment.transactionId}`);
    const plan = payment.fraud ? this.fraudPlan(payment.fraud, payment.account, payment.device, random) : this.genuinePlan(payment.account, payment.device, random);
    if (plan === undefined) return;
    const device = this.root.derive(`device:${payment.device.deviceId}`);
    this.world.emit(time, CLIENT_EVENTS_PATH, clientEventsRequest(time, payment.account, payment.device, plan, random, device));
  }

  private genuinePlan(account: CustomerAccount, device: SimDevice, random: SeededRandom): SessionPlan | undefined {
    const deviceRandom = this.root.derive(`genuine:${device.deviceId}`);
    if (deviceRandom.chance(GENUINE.noSdk)) return undefined;
    const home = MARKET_TIME_ZONES[account.market.country] ?? 'Europe/London';
    return {
      webdriver: false,
      timeZone: random.chance(GENUINE.travel) ? random.pick(TRAVEL_TIME_ZONES) : home,
      pageviews: random.int(2, 12),
      seconds: Math.round(random.logNormal(240, 0.7)),
      cardPastes: random.chance(GENUINE.cardPaste) ? 1 : 0,
      otherPastes: random.chance(GENUINE.otherPaste) ? 1 : 0,
    };
  }

  private fraudPlan(actor: FraudActor, account: CustomerAccount, device: SimDevice, random: SeededRandom): SessionPlan | undefined {
    const habits = FRAUD_HABITS[actor.kind];
    const traits = this.traitsOf(actor, habits);
    // A script that is not a browser runs no JavaScript: no SDK.
    if (traits.noSdk || device.profile.userAgent.startsWith('python-')) return undefined;
    const bot = traits.bot || device.profile.userAgent.includes('Headless');
    traits.batches += 1;
    if ((bot || actor.kind === 'card-testing') && traits.batches > 1 && random.int(1, BATCH_EVERY) !== 1) return undefined;
    return {
      webdriver: bot && !traits.hidesWebdriver,
      // Else its browser is set to the zone of the account's market, as a careful fraudster's is.
      timeZone: traits.timeZone ?? MARKET_TIME_ZONES[account.market.country] ?? 'Europe/London',
      pageviews: bot ? random.int(1, 2) : random.int(1, 5),
      seconds: bot ? random.int(2, 25) : random.int(20, 240),
      cardPastes: random.chance(habits.cardPaste) ? (bot ? random.int(1, 3) : 1) : 0,
      otherPastes: random.chance(0.3) ? 1 : 0,
    };
  }

  /** An actor's habits, drawn once from its own stream (bounded: one entry per fraudulent actor). */
  private traitsOf(actor: FraudActor, habits: KindHabits): ActorTraits & { batches: number } {
    let traits = this.actors.get(actor.actorId);
    if (traits === undefined) {
      const random = this.root.derive(`actor:${actor.actorId}`);
      const bot = random.chance(habits.bot);
      traits = {
        noSdk: random.chance(habits.noSdk),
        bot,
        hidesWebdriver: bot && random.chance(0.35),
        timeZone: random.chance(habits.ownTimeZone) ? random.pick(FRAUD_TIME_ZONES) : undefined,
        batches: 0,
      };
      this.actors.set(actor.actorId, traits);
    }
    return traits;
  }
}
