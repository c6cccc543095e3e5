import type { SeededRandom } from '../seeded-random';
import type { FraudKind } from '../traffic-record';

/** How many customer accounts an actor of each kind uses (each one counts towards the fraud rate). */
export const FRAUD_MIX: ReadonlyArray<readonly [FraudKind, number]> = [
  ['stolen-card', 28],
  ['drifting-fraud', 16],
  ['account-takeover', 12],
  ['card-testing', 8],
  ['promo-abuse', 14],
  ['referral-abuse', 8],
  ['refund-abuse', 7],
  ['fake-supplier', 7],
];

export function accountsPerActor(kind: FraudKind, random: SeededRandom): number {
  switch (kind) {
    case 'stolen-card':
      return random.int(3, 6);
    case 'promo-abuse':
      return random.int(4, 9);
    case 'referral-abuse':
      return random.int(3, 7);
    case 'card-testing':
      return random.int(1, 2);
    case 'fake-supplier':
      return random.int(2, 3);
    case 'drifting-fraud':
    case 'account-takeover':
    case 'refund-abuse':
      return 1;
  }
}
