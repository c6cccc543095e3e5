import type { Checkpoint, PayloadFacts } from '@ringfence/contracts';
import { sameCurrency } from '../currency-amounts';
import { type FeatureDefinition, type FeatureInputs, defineFeature } from './feature-definition';
import { HOUR_MS, objectAt, rounded, textAt, trimmed } from './payload-values';
import { largeAmountRatio } from './payment-features';

const REFUND: readonly Checkpoint[] = ['refund'];
const PAYOUT: readonly Checkpoint[] = ['payout'];
const REGISTRATION: readonly Checkpoint[] = ['registration'];
const VOUCHER_REDEMPTION: readonly Checkpoint[] = ['voucherRedemption'];

/** Refund amount ÷ order price, when both are known and in one currency (or one names none). */
function refundToOrderRatio({ refund, order }: PayloadFacts): number | null {
  const amount = refund?.amount;
  const price = order?.price;
  if (amount === undefined || price === undefined || price <= 0) return null;
  if (!sameCurrency({ minorUnits: amount, currency: trimmed(refund?.currency) }, { minorUnits: price, currency: trimmed(order?.currency) })) return null;
  return amount / price;
}

/**
 * Whether the subject's record holds nothing older than this event: every field it has was set
 * by this request (or a later one). Null when the record's field times are not known.
 */
function firstSeenNow(inputs: FeatureInputs): boolean | null {
  const times = Object.values(inputs.subjectFieldTimestamps);
  if (times.length === 0) return Object.keys(inputs.subject).length === 0 ? true : null;
  return times.every((time) => time >= inputs.eventTimeMs);
}

/** What only one checkpoint carries: refunds against their order, payouts, registrations, voucher networks. */
export const CHECKPOINT_FEATURES: readonly FeatureDefinition[] = [
  defineFeature({
    name: 'refundToOrderRatio',
    type: 'double',
    description: 'Refund amount ÷ order price (three decimals), when both are sent in one currency (or one of them names none). Null otherwise.',
    checkpoints: REFUND,
    compute: ({ facts }) => {
      const ratio = refundToOrderRatio(facts);
      return ratio === null ? null : rounded(ratio, 3);
    },
  }),
  defineFeature({
    name: 'refundExceedsOrder',
    type: 'bool',
    description: 'The refund asks back more than the order cost (`refundToOrderRatio` > 1); null when they cannot be compared.',
    checkpoints: REFUND,
    compute: ({ facts }) => {
      const ratio = refundToOrderRatio(facts);
      return ratio === null ? null : ratio > 1;
    },
  }),
  defineFeature({
    name: 'orderAgeHours',
    type: 'double',
    description: 'Hours from the order\'s `creationTime` to the refund request (never negative, two decimals); null when not sent.',
    checkpoints: REFUND,
    compute: ({ inputs, facts }) => {
      const created = facts.order?.creationTimeMs;
      return created === undefined ? null : rounded(Math.max(0, inputs.eventTimeMs - created) / HOUR_MS, 2);
    },
  }),
  defineFeature({
    name: 'payoutSupplierFirstSeen',
    type: 'bool',
    description:
      'Nothing in the supplier\'s stored record is older than this payout: the supplier was first seen with it. A record only ever re-sent in full by payouts also reads as first seen, so a supplier known from earlier `/v2/supplier` or registration calls with fields the payout does not repeat (registration time, device, address) is not.',
    checkpoints: PAYOUT,
    compute: ({ inputs }) => firstSeenNow(inputs),
  }),
  defineFeature({
    name: 'largePayoutToNewSupplier',
    type: 'bool',
    description: 'A large payout (`amountLarge`) to a supplier first seen with it (`payoutSupplierFirstSeen`); null when either is unknown and the other not false.',
    checkpoints: PAYOUT,
    compute: ({ inputs }) => {
      const ratio = largeAmountRatio(inputs);
      const [firstSeen, large] = [firstSeenNow(inputs), ratio === null ? null : ratio >= 1];
      if (firstSeen === false || large === false) return false;
      return firstSeen === null || large === null ? null : true;
    },
  }),
  defineFeature({
    name: 'supplierIdentityVerified',
    type: 'bool',
    description: 'The merchant verified the supplier\'s identity (`identityVerified`); null when not said.',
    checkpoints: PAYOUT,
    compute: ({ inputs }) => (typeof inputs.subject.identityVerified === 'boolean' ? inputs.subject.identityVerified : null),
  }),
  defineFeature({
    name: 'payoutHasPaymentMethod',
    type: 'bool',
    description: 'The payout names where the money goes (`paymentMethod`, or the deprecated `paymentMethods`).',
    checkpoints: PAYOUT,
    compute: ({ facts }) => Object.keys(facts.paymentMethod?.fields ?? {}).length > 0 || facts.paymentMethods.length > 0,
  }),
  defineFeature({
    name: 'payoutNotificationEmailMatchesSupplier',
    type: 'bool',
    description: 'The payout\'s `notificationEmail` is the supplier\'s own e-mail (case-insensitive): notices redirected elsewhere are a takeover sign. Null unless both are known.',
    checkpoints: PAYOUT,
    compute: ({ inputs, facts }) => {
      const notification = trimmed(facts.payout?.notificationEmail);
      const own = textAt(inputs.subject.email);
      return notification === null || own === null ? null : notification.toLowerCase() === own.toLowerCase();
    },
  }),
  defineFeature({
    name: 'registrationFailed',
    type: 'bool',
    description: 'The registration attempt failed (`registration.success` false); null when not said.',
    checkpoints: REGISTRATION,
    compute: ({ facts }) => {
      const { success } = facts.registration;
      return success === undefined ? null : !success;
    },
  }),
  defineFeature({
    name: 'passwordTooSimple',
    type: 'bool',
    description: 'The password was refused as too simple (`failureReason` `PASSWORD_TOO_SIMPLE`); null without a password outcome.',
    checkpoints: REGISTRATION,
    compute: ({ inputs }) => {
      const password = objectAt(objectAt(objectAt(inputs.payload.registration).registrationMechanism).password);
      if (Object.keys(password).length === 0) return null;
      return textAt(password.failureReason)?.toUpperCase() === 'PASSWORD_TOO_SIMPLE';
    },
  }),
  defineFeature({
    name: 'credentialsBreached',
    type: 'bool',
    description: 'The username or the password is in the breached-credentials store (the gateway\'s `credentialStatus`); null when not checked.',
    checkpoints: REGISTRATION,
    compute: ({ inputs }) => {
      const status = objectAt(inputs.payload.credentialStatus);
      if (typeof status.usernameBreached !== 'boolean' && typeof status.passwordBreached !== 'boolean') return null;
      return status.usernameBreached === true || status.passwordBreached === true;
    },
  }),
  defineFeature({
    name: 'voucherNetworkUses',
    type: 'int',
    description: 'Successful redemptions of the code in the redeeming customer\'s network, this one included (the voucher check\'s count); null when not asked (voucher abuse disabled) or the graph did not answer.',
    checkpoints: VOUCHER_REDEMPTION,
    compute: ({ inputs }) => inputs.voucherNetwork?.uses ?? null,
  }),
  defineFeature({
    name: 'voucherAbuseThreshold',
    type: 'int',
    description: 'The account\'s voucher-abuse threshold for the code\'s voucher type; null when not asked.',
    checkpoints: VOUCHER_REDEMPTION,
    compute: ({ inputs }) => inputs.voucherNetwork?.threshold ?? null,
  }),
  defineFeature({
    name: 'voucherAbuse',
    type: 'bool',
    description: 'The network\'s uses reached the threshold (what the voucher check answers `ABUSE` for); false when not asked.',
    checkpoints: VOUCHER_REDEMPTION,
    compute: ({ inputs }) => inputs.voucherNetwork?.abuse ?? false,
  }),
];
