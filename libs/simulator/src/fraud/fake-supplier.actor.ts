import { FOREIGN_ISSUERS, HOSTING_IP_PREFIXES, categoryNamed, ipAddress } from '../catalogue';
import { basketMinor } from '../commerce';
import { type Card, type SimDevice, type SupplierAccount, address, personName } from '../entities';
import { DAY_MS, HOUR_MS } from '../world';
import { type FraudStarter, FraudToolkit, stolenCardBehaviour } from './fraud-toolkit';

/** What the fake suppliers and their colluding customers share. */
interface FakeSupplierRing {
  kit: FraudToolkit;
  device: SimDevice;
  suppliers: SupplierAccount[];
  /** The stolen cards the colluders pay with. */
  cards: Card[];
  /** When the ring stops shopping and cashing out. */
  stopAt: number;
  customerIds: string[];
}

/** Fake suppliers: sign up unverified, get fake orders paid with stolen cards by colluding customers, cash out daily. */
export const fakeSupplier: FraudStarter = (commerce, random, actor, market, colluders) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const ipPrefixes = market.ipPrefixes;
  const device = random.chance(0.5) ? kit.fraudDevice(ipPrefixes) : kit.genuineLookingDevice(ipPrefixes);
  const suppliers = fakeSuppliers(kit, device);
  const cards = Array.from({ length: random.int(3, 6) }, () => kit.stolenCard());
  const activeDays = random.int(7, 14);
  const ring: FakeSupplierRing = { kit, device, suppliers, cards, stopAt: world.now + activeDays * DAY_MS, customerIds: [] };
  actor.detail.activeDays = activeDays;
  for (let index = 0; index < colluders; index += 1) {
    world.traffic(world.now + random.between(2, 48) * HOUR_MS, () => colludeAsCustomer(ring));
  }
  for (const supplier of suppliers) cashOutDaily(ring, supplier);
  labelWhenQuiet(ring);
};

/** One or two unverified suppliers paid out to one shared prepaid virtual card. */
function fakeSuppliers(kit: FraudToolkit, device: SimDevice): SupplierAccount[] {
  const { commerce, random, actor, market, world } = kit;
  const sharedPayoutCard = commerce.newCard(random, personName(random, market), address(random, market), FOREIGN_ISSUERS.filter((issuer) => issuer.prepaid));
  sharedPayoutCard.virtual = true;
  const suppliers = Array.from({ length: random.int(1, 2) }, () => {
    const supplier = commerce.newSupplier(random, market, random.chance(0.5) ? 'courier' : 'seller', world.now, () => device);
    supplier.identityVerified = false;
    supplier.payoutCard = sharedPayoutCard;
    actor.supplierIds.add(supplier.supplierId);
    return supplier;
  });
  actor.instrumentIds.add(sharedPayoutCard.instrumentId);
  actor.deviceIds.add(device.deviceId);
  for (const supplier of suppliers) commerce.announceSupplier(supplier, random, true);
  return suppliers;
}

/** A colluding customer signs up and orders from the fake suppliers with stolen cards until the ring stops. */
function colludeAsCustomer(ring: FakeSupplierRing): void {
  const { kit, device, suppliers, cards } = ring;
  const { commerce, random, actor, world } = kit;
  const account = kit.account((given, family) => kit.plausibleEmail(given, family));
  const ip = random.chance(0.6) ? device.homeIp : ipAddress(random, HOSTING_IP_PREFIXES);
  kit.signUp(account, device, ip, false);
  ring.customerIds.push(account.customerId);
  const shop = () => {
    if (world.now > ring.stopAt) return;
    const supplier = random.pick(suppliers);
    kit.chargeback(
      commerce.pay(random, {
        account,
        device,
        ipAddress: ip,
        card: random.pick(cards),
        category: supplier.type === 'courier' ? categoryNamed('groceries') : categoryNamed('electronics'),
        amountMinor: basketMinor(random, 180, 0.4),
        shipTo: account.address,
        supplier,
        behaviour: stolenCardBehaviour(random, 0.15),
        fraud: actor,
      }),
      0.9,
    );
    world.traffic(world.now + random.between(4, 36) * HOUR_MS, shop);
  };
  shop();
}

function cashOutDaily(ring: FakeSupplierRing, supplier: SupplierAccount): void {
  const { commerce, random, actor, world } = ring.kit;
  const cashOut = () => {
    commerce.payout(supplier, 'DAILY', 'SUPPLIER', random.chance(0.5) ? `${random.chars(8)}@proton.me` : supplier.email, actor);
    if (world.now < ring.stopAt) world.traffic(world.now + random.between(20, 30) * HOUR_MS, cashOut);
  };
  world.traffic(world.now + random.between(20, 30) * HOUR_MS, cashOut);
}

/** The back office looks once the suppliers went quiet (or the traffic ended): days after the first chargeback. */
function labelWhenQuiet(ring: FakeSupplierRing): void {
  const { kit, customerIds } = ring;
  const { commerce, random, actor, world } = kit;
  world.later(Math.min(ring.stopAt, world.trafficEnd), () => {
    if (!random.chance(0.9)) return;
    const at = (kit.firstChargeback ?? world.now) + random.between(2, 8) * DAY_MS;
    for (const id of actor.supplierIds) commerce.labelSupplierLater(at, id, 'FRAUDULENT', 'Fake supplier: paid out on fake orders with stolen cards.', random);
    for (const id of customerIds) commerce.labelCustomerLater(at + HOUR_MS, id, 'PAYMENT_FRAUD', 'FRAUDSTER', 'Colluded with a fake supplier.', random);
  });
}
