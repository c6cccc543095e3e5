import { type Market, categoryNamed, ipAddress } from '../catalogue';
import { type Commerce, basketMinor } from '../commerce';
import { type Address, type CustomerAccount, type SimDevice, address } from '../entities';
import { customerRequest } from '../payloads/party-payloads';
import type { SeededRandom } from '../seeded-random';
import { DAY_MS, type FraudActor, HOUR_MS, MINUTE_MS } from '../world';
import { type FraudStarter, FraudToolkit, reviewDelay, stolenCardBehaviour } from './fraud-toolkit';

/** The attacker's hold on a victim's account: the device and IP address it signs in from. */
interface TakenAccount {
  kit: FraudToolkit;
  victim: CustomerAccount;
  device: SimDevice;
  ip: string;
  /** When the owner's first dispute is filed, once one is. */
  firstDispute?: number;
}

/** Account takeover: a genuine customer's account used from a new device, details changed, saved card spent. */
export const accountTakeover: FraudStarter = (commerce, random, actor, market) => takeOver(commerce, random, actor, market, 0);

function takeOver(commerce: Commerce, random: SeededRandom, actor: FraudActor, market: Market, attempt: number): void {
  const world = commerce.world;
  const victim = pickVictim(commerce, random);
  if (victim === undefined) {
    // Too early in the run for a victim with a saved card: try again the next day.
    if (attempt < 10) world.traffic(world.now + DAY_MS, () => takeOver(commerce, random, actor, market, attempt + 1));
    return;
  }
  const taken = signInAsVictim(new FraudToolkit(commerce, random, actor, victim.market), victim);
  const changedAt = world.now + random.int(2, 12) * MINUTE_MS;
  world.traffic(changedAt, () => {
    changeVictimDetails(taken);
    spendFromTakenAccount(taken);
  });
}

/** A genuine customer with a saved card not yet taken over (each is taken over at most once). */
function pickVictim(commerce: Commerce, random: SeededRandom): CustomerAccount | undefined {
  const candidates = commerce.marketplace.takeoverCandidates.filter((candidate) => candidate.lockedAt === undefined && candidate.cards.length > 0);
  if (candidates.length === 0) return undefined;
  const victim = random.pick(candidates);
  commerce.marketplace.takeoverCandidates.splice(commerce.marketplace.takeoverCandidates.indexOf(victim), 1);
  return victim;
}

function signInAsVictim(kit: FraudToolkit, victim: CustomerAccount): TakenAccount {
  const { random, actor, world } = kit;
  const foreign = random.chance(0.6);
  const ipPrefixes = foreign ? kit.riskyIpPrefixes() : victim.market.ipPrefixes;
  const device = random.chance(0.5) ? kit.fraudDevice(ipPrefixes) : kit.genuineLookingDevice(ipPrefixes);
  const ip = ipAddress(random, ipPrefixes);
  actor.customerIds.add(victim.customerId);
  actor.detail.victimRegisteredAt = victim.registrationTime;
  actor.detail.attackerAbroad = foreign;
  actor.acted(world.now);
  world.emit(world.now, '/v2/customer', customerRequest(world.now, 'login', victim, device, ip));
  return { kit, victim, device, ip };
}

/** The attacker locks the owner out: a new e-mail address, often a new phone number. */
function changeVictimDetails({ kit, victim, device, ip }: TakenAccount): void {
  const { random, actor, world } = kit;
  victim.email = `${random.chars(8, 'abcdefghijklmnopqrstuvwxyz')}${random.digits(3)}@proton.me`;
  victim.emailVerifiedTime = undefined;
  if (random.chance(0.6)) victim.telephone = `+44${random.pick(['7', '7'])}${random.digits(9)}`;
  actor.detail.newEmail = victim.email;
  world.emit(world.now, '/v2/customer', customerRequest(world.now, 'profile-update', victim, device, ip));
}

function spendFromTakenAccount(taken: TakenAccount): void {
  const { random, world } = taken.kit;
  const drop = address(random, taken.victim.market);
  let orderAt = world.now + random.int(5, 60) * MINUTE_MS;
  const count = random.int(1, 4);
  for (let index = 0; index < count; index += 1) {
    const first = index === 0;
    world.traffic(orderAt, () => payFromTakenAccount(taken, drop, first));
    orderAt += random.between(0.2, 20) * HOUR_MS;
  }
}

/** One order on the victim's saved card (or a stolen one); the owner disputes it and the first one gets the account labelled. */
function payFromTakenAccount(taken: TakenAccount, drop: Address, first: boolean): void {
  const { kit, victim, device, ip } = taken;
  const { commerce, random, actor, world } = kit;
  const savedCard = victim.cards[0];
  const card = savedCard && random.chance(0.75) ? savedCard : kit.stolenCard();
  const saved = card === savedCard;
  const order = commerce.pay(random, {
    account: victim,
    device,
    ipAddress: ip,
    card,
    category: categoryNamed(random.weighted([['electronics', 55], ['gift-cards', 35], ['tickets', 10]] as const)),
    amountMinor: basketMinor(random, 220, 0.5),
    shipTo: drop,
    behaviour: saved ? { threeDs: 'none', avs: { postalCode: 'STRONG_MATCH', street: 'STRONG_MATCH' }, cvv: 'NOT_CHECKED' } : stolenCardBehaviour(random, 0.3),
    fraud: actor,
  });
  // The owner notices within days and disputes: faster than a stolen card's issuer.
  if (order.approved && random.chance(0.9)) {
    const filed = commerce.disputeLater(order, random.between(2, 12) * DAY_MS, 'unauthorised', 'LOST', random.between(15, 40) * DAY_MS);
    taken.firstDispute = taken.firstDispute === undefined ? filed : Math.min(taken.firstDispute, filed);
  }
  if (first && random.chance(0.85)) {
    const labelledAt = (taken.firstDispute ?? world.now + reviewDelay(random)) + random.between(0.5, 3) * DAY_MS;
    commerce.labelCustomerLater(labelledAt, victim.customerId, 'PAYMENT_FRAUD', 'FRAUDSTER', `Account takeover: new device and e-mail from ${new Date(actor.began ?? world.now).toISOString()}.`, random);
    victim.lockedAt = labelledAt;
  }
}
