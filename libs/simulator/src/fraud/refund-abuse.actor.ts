import { basketMinor } from '../commerce';
import { categoryNamed } from '../catalogue';
import { genuineBehaviour } from '../genuine-customer';
import { DAY_MS, MINUTE_MS } from '../world';
import { type FraudStarter, FraudToolkit } from './fraud-toolkit';

/** Serial refund abuser: a real customer with its own card who asks for most of its money back. */
export const refundAbuse: FraudStarter = (commerce, random, actor, market) => {
  const kit = new FraudToolkit(commerce, random, actor, market);
  const world = commerce.world;
  const account = kit.account((given, family) => kit.plausibleEmail(given, family));
  const device = kit.genuineLookingDevice();
  const card = commerce.newCard(random, account, account.address);
  account.cards.push(card);
  kit.signUp(account, device, device.homeIp, false);
  let refunds = 0;
  let labelled = false;
  const threshold = random.int(3, 5);
  const session = () => {
    const order = commerce.pay(random, {
      account,
      device,
      ipAddress: device.homeIp,
      card,
      category: categoryNamed(random.weighted([['fashion', 50], ['electronics', 30], ['food', 20]] as const)),
      amountMinor: basketMinor(random, 90, 0.5),
      shipTo: account.address,
      behaviour: genuineBehaviour(random, 5000, true),
    });
    if (order.approved && random.chance(0.75)) {
      world.traffic(world.now + random.between(1, 3) * DAY_MS, () => {
        commerce.refund(random, account, order, device, device.homeIp, random.pick(['item_not_received', 'damaged', 'empty_box']), actor, random.chance(0.15) ? 1.2 : 1);
        refunds += 1;
        if (refunds >= threshold && !labelled) {
          labelled = true;
          if (random.chance(0.85)) commerce.labelCustomerLater(world.now + random.between(2, 8) * DAY_MS, account.customerId, 'REFUND_ABUSE', 'REFUND_ABUSE', `Serial refunds: ${refunds} claims in weeks.`, random);
        }
      });
    }
    world.traffic(world.now + random.between(1, 3) * DAY_MS, session);
  };
  world.traffic(world.now + random.int(10, 120) * MINUTE_MS, session);
};
