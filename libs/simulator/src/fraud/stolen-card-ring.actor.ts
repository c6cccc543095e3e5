import { basketMinor } from '../commerce';
import { address } from '../entities';
import { categoryNamed, ipAddress } from '../catalogue';
import { HOUR_MS, MINUTE_MS } from '../world';
import { type FraudStarter, FraudToolkit, stolenCardBehaviour } from './fraud-toolkit';

/** Stolen-card ring: several new accounts sharing devices, proxies, drop addresses and a pool of stolen cards. */
export const stolenCardRing: FraudStarter = (commerce, random, actor, market, members) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const ipPrefixes = kit.riskyIpPrefixes();
  const devices = Array.from({ length: random.int(1, 2) }, () => (random.chance(0.6) ? kit.fraudDevice(ipPrefixes) : kit.genuineLookingDevice(ipPrefixes)));
  const cards = Array.from({ length: random.int(4, 10) }, () => kit.stolenCard());
  const drops = Array.from({ length: random.int(1, 2) }, () => address(random, market));
  actor.detail.ringSize = members;
  actor.detail.sharedDevices = devices.length;
  actor.detail.sharedCards = cards.length;
  const world = commerce.world;
  let at = world.now;
  for (let index = 0; index < members; index += 1) {
    world.traffic(at, () => {
      const account = kit.account((given, family) => (random.chance(0.4) ? kit.disposableEmail() : kit.plausibleEmail(given, family)));
      const device = random.pick(devices);
      const ip = ipAddress(random, ipPrefixes);
      kit.signUp(account, device, ip, random.chance(0.4));
      let orderAt = world.now + random.int(5, 120) * MINUTE_MS;
      const count = random.int(2, 5);
      for (let order = 0; order < count; order += 1) {
        const first = order === 0;
        world.traffic(orderAt, () => {
          const category = categoryNamed(random.weighted([['electronics', 50], ['gift-cards', 35], ['fashion', 15]] as const));
          kit.chargeback(
            commerce.pay(random, {
              account,
              device,
              ipAddress: random.chance(0.7) ? ip : ipAddress(random, ipPrefixes),
              card: random.pick(cards),
              category,
              amountMinor: basketMinor(random, 260, 0.5),
              shipTo: random.pick(drops),
              behaviour: stolenCardBehaviour(random, 0.3),
              fraud: actor,
            }),
            0.9,
          );
          if (first) kit.labelLater(() => [account.customerId], 0.88, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Stolen cards; ring sharing devices and cards.');
        });
        orderAt += random.between(0.5, 30) * HOUR_MS;
      }
    });
    at += random.exponential(8 * HOUR_MS);
  }
};
