import { FOREIGN_ISSUERS, categoryNamed, issuersOf } from '../catalogue';
import { type PaymentBehaviour, basketMinor } from '../commerce';
import type { Card, CustomerAccount, SimDevice } from '../entities';
import { genuineBehaviour } from '../genuine-customer';
import type { SeededRandom } from '../seeded-random';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../world';
import { type FraudStarter, FraudToolkit, stolenCardBehaviour } from './fraud-toolkit';

/** Which of the later tactics an actor uses; each grows likelier as the run goes on. */
interface DriftTactics {
  agedAccount: boolean;
  residentialIp: boolean;
  mobileDevice: boolean;
  domesticCard: boolean;
  lowValue: boolean;
  threeDsPassed: boolean;
  realisticEmail: boolean;
}

/** The drifting fraudster's account and what it pays with. */
interface DriftingFraudster {
  kit: FraudToolkit;
  tactics: DriftTactics;
  account: CustomerAccount;
  device: SimDevice;
  cards: Card[];
}

/**
 * Drifting fraud: stolen-card fraud whose tactics move as the weeks pass (the merchant's
 * defences adapt, so do the fraudsters): from new accounts on disposable e-mails, proxies,
 * emulators and foreign cards buying electronics, to aged accounts with real-looking details on
 * residential addresses, domestic phished cards passing 3-D Secure, buying groceries.
 */
export const driftingFraud: FraudStarter = (commerce, random, actor, market) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const phase = Math.min(1, Math.max(0, (world.now - world.start) / Math.max(1, world.trafficEnd - world.start)));
  const tactics = driftTactics(random, phase);
  actor.detail.phase = Math.round(phase * 1000) / 1000;
  actor.detail.tactics = tactics;
  const fraudster = setUpDriftingFraudster(kit, tactics);
  let at = world.now + (tactics.agedAccount ? random.between(3, 10) * DAY_MS : random.int(10, 60) * MINUTE_MS);
  if (tactics.agedAccount) {
    // A small, clean order first, to look like a customer.
    world.traffic(world.now + random.between(1, 2) * DAY_MS, () => payCleanOrder(fraudster));
  }
  const count = random.int(2, 4);
  for (let index = 0; index < count; index += 1) {
    const first = index === 0;
    world.traffic(at, () => payWithStolenCard(fraudster, first));
    at += random.between(1, 24) * HOUR_MS;
  }
};

function driftTactics(random: SeededRandom, phase: number): DriftTactics {
  return {
    agedAccount: random.chance(phase),
    residentialIp: random.chance(phase),
    mobileDevice: random.chance(phase),
    domesticCard: random.chance(phase),
    lowValue: random.chance(phase),
    threeDsPassed: random.chance(phase * 0.8),
    realisticEmail: random.chance(phase),
  };
}

function setUpDriftingFraudster(kit: FraudToolkit, tactics: DriftTactics): DriftingFraudster {
  const { random, market } = kit;
  const ipPrefixes = tactics.residentialIp ? market.ipPrefixes : kit.riskyIpPrefixes();
  const device = tactics.mobileDevice ? kit.genuineLookingDevice(ipPrefixes) : kit.fraudDevice(ipPrefixes);
  const account = kit.account((given, family) => (tactics.realisticEmail ? kit.plausibleEmail(given, family) : kit.disposableEmail()));
  kit.signUp(account, device, device.homeIp, !tactics.realisticEmail);
  const cards = Array.from({ length: random.int(1, 3) }, () => kit.stolenCard(tactics.domesticCard ? issuersOf(market.country) : FOREIGN_ISSUERS));
  return { kit, tactics, account, device, cards };
}

function payCleanOrder({ kit, account, device }: DriftingFraudster): void {
  const { commerce, random, market } = kit;
  commerce.pay(random, {
    account,
    device,
    ipAddress: device.homeIp,
    card: commerce.newCard(random, account, account.address, issuersOf(market.country)),
    category: categoryNamed('food'),
    amountMinor: random.int(1200, 2500),
    shipTo: account.address,
    behaviour: genuineBehaviour(random, 1500, false),
  });
}

function payWithStolenCard({ kit, tactics, account, device, cards }: DriftingFraudster, first: boolean): void {
  const { commerce, random, actor } = kit;
  const category = tactics.lowValue ? categoryNamed(random.pick(['groceries', 'food'])) : categoryNamed(random.pick(['electronics', 'gift-cards']));
  const behaviour: PaymentBehaviour = tactics.threeDsPassed
    ? { threeDs: 'frictionless', avs: { postalCode: 'STRONG_MATCH', street: 'PARTIAL_MATCH' }, cvv: 'PASS' }
    : stolenCardBehaviour(random, 0.2);
  kit.chargeback(
    commerce.pay(random, {
      account,
      device,
      ipAddress: device.homeIp,
      card: random.pick(cards),
      category,
      amountMinor: tactics.lowValue ? basketMinor(random, 70, 0.4) : basketMinor(random, 300, 0.5),
      shipTo: account.address,
      behaviour,
      fraud: actor,
    }),
    0.85,
  );
  if (first) kit.labelLater(() => [account.customerId], 0.85, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Stolen cards (evolving tactics).');
}
