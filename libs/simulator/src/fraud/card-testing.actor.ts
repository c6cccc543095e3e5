import { FOREIGN_ISSUERS, HOSTING_IP_PREFIXES, categoryNamed, ipAddress, issuersOf } from '../catalogue';
import { address } from '../entities';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../world';
import { type FraudStarter, FraudToolkit } from './fraud-toolkit';

/** Card testing: a bot trying many cards of one BIN with tiny amounts, at night, mostly declined. */
export const cardTesting: FraudStarter = (commerce, random, actor, market, accounts) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const ipPrefixes = HOSTING_IP_PREFIXES;
  const device = kit.fraudDevice(ipPrefixes);
  const members = Array.from({ length: accounts }, () => kit.account(() => kit.disposableEmail()));
  const home = address(random, market);
  const ip = ipAddress(random, ipPrefixes);
  for (const account of members) kit.signUp(account, device, ip, true);
  const day = Math.floor(world.now / DAY_MS) * DAY_MS;
  let burstAt = day + DAY_MS + random.int(1, 4) * HOUR_MS + random.int(0, 59) * MINUTE_MS;
  if (burstAt <= world.now) burstAt = world.now + HOUR_MS;
  const attempts = random.int(30, 140);
  const issuer = random.pick([...FOREIGN_ISSUERS, ...issuersOf(market.country)]);
  actor.detail.attempts = attempts;
  actor.detail.bin = issuer.bin;
  let at = burstAt;
  for (let index = 0; index < attempts; index += 1) {
    const last = index === attempts - 1;
    world.traffic(at, () => {
      const approved = random.chance(0.12);
      const declineCode = approved
        ? undefined
        : random.weighted([['INCORRECT_CVC', 30], ['INVALID_CARD_NUMBER', 25], ['EXPIRED_CARD', 15], ['DO_NOT_HONOR', 20], ['INSUFFICIENT_FUNDS', 10]] as const);
      kit.chargeback(
        commerce.pay(random, {
          account: random.pick(members),
          device,
          ipAddress: random.chance(0.8) ? ip : ipAddress(random, ipPrefixes),
          card: kit.stolenCard([issuer]),
          category: categoryNamed(random.pick(['gift-cards', 'food'])),
          amountMinor: random.int(100, 300),
          shipTo: home,
          supplier: null,
          behaviour: { threeDs: 'none', ...(declineCode ? { declineCode } : {}), avs: { postalCode: 'NOT_CHECKED', street: 'NOT_CHECKED' }, cvv: declineCode === 'INCORRECT_CVC' ? 'FAIL' : 'PASS' },
          fraud: actor,
        }),
        0.3,
      );
      if (last) kit.labelLater(() => actor.customerIds, 0.95, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Card testing: burst of small declined payments.', Math.min(5, random.logNormal(0.8, 0.5)) * DAY_MS);
    });
    at += random.int(4, 40) * 1000;
  }
};
