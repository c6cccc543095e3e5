import type { FraudKind } from '../traffic-record';
import { accountTakeover } from './account-takeover.actor';
import { cardTesting } from './card-testing.actor';
import { driftingFraud } from './drifting-fraud.actor';
import { fakeSupplier } from './fake-supplier.actor';
import type { FraudStarter } from './fraud-toolkit';
import { refundAbuse } from './refund-abuse.actor';
import { stolenCardRing } from './stolen-card-ring.actor';
import { promoAbuse, referralAbuse } from './voucher-abuse.actor';

/** The fraud pattern each kind of actor plays out. */
export const FRAUD_STARTERS: Record<FraudKind, FraudStarter> = {
  'stolen-card': stolenCardRing,
  'account-takeover': accountTakeover,
  'card-testing': cardTesting,
  'promo-abuse': promoAbuse,
  'referral-abuse': referralAbuse,
  'refund-abuse': refundAbuse,
  'fake-supplier': fakeSupplier,
  'drifting-fraud': driftingFraud,
};
