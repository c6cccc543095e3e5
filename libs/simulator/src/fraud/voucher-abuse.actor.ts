import { FOREIGN_ISSUERS, HOSTING_IP_PREFIXES, categoryNamed, ipAddress } from '../catalogue';
import { personName, address } from '../entities';
import { genuineBehaviour, welcomeVoucher } from '../genuine-customer';
import { voucherRequest } from '../payloads/order-payloads';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../world';
import { type FraudStarter, FraudToolkit } from './fraud-toolkit';

/** Promo abuse: one person opening account after account to use the welcome voucher again, same device, card and address. */
export const promoAbuse: FraudStarter = (commerce, random, actor, market, accounts) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const person = personName(random, market);
  const home = address(random, market);
  const device = kit.genuineLookingDevice();
  const secondDevice = random.chance(0.4) ? kit.genuineLookingDevice() : device;
  const cards = [commerce.newCard(random, person, home)];
  if (random.chance(0.4)) cards.push(commerce.newCard(random, person, home));
  const voucher = welcomeVoucher(market.currency);
  const base = `${person.givenName}.${person.familyName}`.normalize('NFD').replace(/[^A-Za-z.]/g, '').toLowerCase();
  actor.detail.accounts = accounts;
  let at = world.now;
  const ids: string[] = [];
  for (let index = 0; index < accounts; index += 1) {
    world.traffic(at, () => {
      const account = kit.account(() => random.pick([`${base}+${index + 1}@gmail.com`, `${base.replace('.', '')}${index + 1}@outlook.com`, `${base}.${random.digits(2)}@gmail.com`]));
      account.address = home;
      const used = index % 2 === 0 ? device : secondDevice;
      const ip = random.chance(0.7) ? used.homeIp : ipAddress(random, HOSTING_IP_PREFIXES);
      kit.signUp(account, used, ip, false);
      ids.push(account.customerId);
      world.traffic(world.now + random.int(2, 20) * MINUTE_MS, () => {
        commerce.redeemVoucher(account, voucher, actor);
        const card = random.pick(cards);
        actor.instrumentIds.add(card.instrumentId);
        commerce.pay(random, {
          account,
          device: used,
          ipAddress: ip,
          card,
          category: categoryNamed('food'),
          amountMinor: random.int(1100, 2400),
          shipTo: home,
          behaviour: genuineBehaviour(random, 1500, true),
        });
      });
    });
    at += random.between(2, 36) * HOUR_MS;
  }
  // Found out once the accounts pile up on one device and address: after the last of them.
  const lastAccountIn = Math.min(at, world.trafficEnd) - world.now;
  kit.labelLater(() => ids, 0.8, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Promotion abuse: one person, many accounts for the welcome voucher.', lastAccountIn + random.between(3, 10) * DAY_MS);
};

/** Referral abuse: a referrer and fake friends on an emulator, each "friend" redeeming the referrer's code. */
export const referralAbuse: FraudStarter = (commerce, random, actor, market, accounts) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const device = kit.fraudDevice(market.ipPrefixes);
  const referrer = kit.account((given, family) => kit.plausibleEmail(given, family));
  const ip = device.homeIp;
  kit.signUp(referrer, device, ip, false);
  const code = `REF-${referrer.givenName.normalize('NFD').replace(/[^A-Za-z]/g, '').toUpperCase()}${random.digits(4)}`;
  const voucher = { code, type: 'REFERRAL', value: 1000, currency: market.currency };
  const prepaid = FOREIGN_ISSUERS.filter((issuer) => issuer.prepaid);
  const cards = Array.from({ length: random.int(1, 2) }, () => commerce.newCard(random, personName(random, market), referrer.address, prepaid));
  actor.detail.referralCode = code;
  const ids = [referrer.customerId];
  let at = world.now + random.between(3, 24) * HOUR_MS;
  world.traffic(at, () => {
    world.emit(world.now, '/v2/voucher', voucherRequest(world.now, { code, type: 'REFERRAL', value: 1000, currency: market.currency, expiry: world.now + 90 * DAY_MS, referrerId: referrer.customerId, referralValue: 1000 }));
    actor.acted(world.now);
    actor.voucherCodes.add(code);
  });
  for (let index = 1; index < accounts; index += 1) {
    at += random.between(1, 20) * HOUR_MS;
    world.traffic(at, () => {
      const friend = kit.account(() => kit.disposableEmail());
      const friendIp = random.chance(0.5) ? ip : ipAddress(random, HOSTING_IP_PREFIXES);
      kit.signUp(friend, device, friendIp, true);
      ids.push(friend.customerId);
      world.traffic(world.now + random.int(3, 30) * MINUTE_MS, () => {
        commerce.redeemVoucher(friend, voucher, actor);
        const card = random.pick(cards);
        actor.instrumentIds.add(card.instrumentId);
        commerce.pay(random, {
          account: friend,
          device,
          ipAddress: friendIp,
          card,
          category: categoryNamed('food'),
          amountMinor: random.int(1000, 1800),
          shipTo: friend.address,
          behaviour: { threeDs: 'none', avs: { postalCode: 'NOT_CHECKED', street: 'NOT_CHECKED' }, cvv: 'PASS' },
        });
      });
    });
  }
  const lastFriendIn = Math.min(at, world.trafficEnd) - world.now;
  kit.labelLater(() => ids, 0.8, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Referral abuse: fake friends on one device.', lastFriendIn + random.between(3, 10) * DAY_MS);
};
