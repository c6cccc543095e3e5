import type { Checkpoint, PayloadFacts, PaymentMethodFacts } from '@ringfence/contracts';
import { LARGE_PAYOUT_FACTOR, largeAmountThreshold, minorUnitDigits } from '../currency-amounts';
import { type FeatureDefinition, type FeatureInputs, defineFeature } from './feature-definition';
import { booleanAt, factsOf, objectAt, rounded, textAt, trimmed } from './payload-values';
import { alpha3Country, continentOf } from './reference-data';

const TRANSACTION: readonly Checkpoint[] = ['transaction'];
const CARD_METHOD_CHECKPOINTS: readonly Checkpoint[] = ['payout', 'refund'];
const AMOUNT_CHECKPOINTS: readonly Checkpoint[] = ['transaction', 'refund', 'payout', 'voucherRedemption'];
const LARGE_AMOUNT_CHECKPOINTS: readonly Checkpoint[] = ['transaction', 'refund', 'payout'];

/** Card-check outcomes that mean the details did not match (the processors' value sets vary). */
const MISMATCH = /NO_?MATCH|MISMATCH|FAIL|NOT_?MATCH/;
/** Decline codes that say the card is lost, stolen, or suspected of fraud (rather than short of funds). */
const FRAUD_DECLINE = /STOLEN|LOST|FRAUD|PICK_?UP|SECURITY|RESTRICTED/;
/** EMV 3-D Secure transaction statuses: authenticated (Y), attempted (A); not authenticated (N) or rejected (R). */
const THREE_DS_AUTHENTICATED = new Set(['Y', 'A']);
const THREE_DS_FAILED = new Set(['N', 'R']);

/** The PSP transaction as sent, for the processor's checks no other reader needs (CVV, AVS). */
const transaction = (inputs: FeatureInputs) => objectAt(factsOf(inputs).transaction?.fields);
const threeDs = (inputs: FeatureInputs) => (typeof inputs.payload.threeds === 'object' && inputs.payload.threeds !== null ? objectAt(inputs.payload.threeds) : null);
const upper = (value: unknown) => textAt(value)?.toUpperCase() ?? null;

/** Amount, currency and large-amount factor of a checkpoint's money, as its payload names them. */
interface CheckpointMoney {
  minorUnits: number | null;
  currency: string | null;
  /** Times a large transaction from which this amount is large (payouts: `LARGE_PAYOUT_FACTOR`). */
  largeFactor: number;
}

/** The checkpoint's money: the payload's (`PayloadFacts.money`: a refund's in its order's currency when it names none). */
function moneyOf(inputs: FeatureInputs): CheckpointMoney | null {
  const facts = factsOf(inputs);
  switch (inputs.checkpoint) {
    case 'transaction':
      return sentMoney(facts.transaction?.amount, facts.transaction?.currency, 1);
    case 'refund':
      return sentMoney(facts.refund?.amount, facts.refund?.currency ?? facts.order?.currency, 1);
    case 'payout':
      return sentMoney(facts.payout?.amount, facts.payout?.currency, LARGE_PAYOUT_FACTOR);
    case 'voucherRedemption':
      return sentMoney(facts.voucherRedemption?.value, facts.voucherRedemption?.currency, 1);
    case 'customer':
    case 'registration':
      return null;
  }
}

const sentMoney = (minorUnits: number | undefined, currency: string | undefined, largeFactor: number): CheckpointMoney => ({
  minorUnits: minorUnits ?? null,
  currency: trimmed(currency),
  largeFactor,
});

/** The checkpoint's amount in major units of its currency; null without an amount and a known currency. */
export function amountInMajorUnits(inputs: FeatureInputs): number | null {
  const money = moneyOf(inputs);
  if (money === null || money.minorUnits === null || money.currency === null) return null;
  const digits = minorUnitDigits(money.currency);
  return digits === null ? null : money.minorUnits / 10 ** digits;
}

/** The amount as a share of its currency's large-amount threshold; null without both. */
export function largeAmountRatio(inputs: FeatureInputs): number | null {
  const money = moneyOf(inputs);
  if (money === null || money.minorUnits === null) return null;
  const threshold = largeAmountThreshold(money.currency, money.largeFactor);
  return threshold === null ? null : money.minorUnits / threshold;
}

/** The card the PSP transaction was paid with; its issuing country as alpha-3. */
const cardCountry = (facts: PayloadFacts) => {
  const issued = trimmed(facts.paymentMethod?.countryIssued);
  return issued === null ? null : alpha3Country(issued);
};

/** The saved cards of a payout (`paymentMethod`, deprecated `paymentMethods`) or refund (`paymentMethods`). */
function cardMethods(facts: PayloadFacts): PaymentMethodFacts[] {
  const methods = facts.paymentMethod ? [facts.paymentMethod, ...facts.paymentMethods] : facts.paymentMethods;
  return methods.filter((method) => method.methodType === 'card');
}

/** True when any card says true, false when some say false and none true, null when none says. */
function anyCardFlag(facts: PayloadFacts, flag: string): boolean | null {
  let seen: boolean | null = null;
  for (const card of cardMethods(facts)) {
    const value = booleanAt(card.fields[flag]);
    if (value === true) return true;
    if (value === false) seen = false;
  }
  return seen;
}

/**
 * The payment: the card's country against the IP address's, the processor's card checks
 * (AVS, CVV, 3-D Secure), declines, card flags, and the amount in its own currency.
 */
export const PAYMENT_FEATURES: readonly FeatureDefinition[] = [
  defineFeature({
    name: 'cardCountry',
    type: 'string',
    description: 'Issuing country of the card paid with (`paymentMethod.countryIssued`, as alpha-3); null when not sent or not a country.',
    checkpoints: TRANSACTION,
    compute: ({ facts }) => cardCountry(facts),
  }),
  defineFeature({
    name: 'cardIpCountryMismatch',
    type: 'bool',
    description: 'The card was issued in another country than the device\'s IP address is in; null unless both are known.',
    checkpoints: TRANSACTION,
    compute: ({ facts, ipCountry }) => {
      const card = cardCountry(facts);
      return card === null || ipCountry === null ? null : card !== ipCountry;
    },
  }),
  defineFeature({
    name: 'cardIpDifferentContinent',
    type: 'bool',
    description: 'The card\'s country and the IP address\'s country are on different continents (continents of `countries-list`): far apart, not a trip across a border. Null unless both are known.',
    checkpoints: TRANSACTION,
    compute: ({ facts, ipCountry }) => {
      const card = cardCountry(facts);
      if (card === null || ipCountry === null) return null;
      const [cardContinent, ipContinent] = [continentOf(card), continentOf(ipCountry)];
      return cardContinent === null || ipContinent === null ? null : cardContinent !== ipContinent;
    },
  }),
  defineFeature({
    name: 'billingIpCountryMismatch',
    type: 'bool',
    description: 'The billing address (`billingAddress.country`) is in another country than the IP address; null unless both are known.',
    checkpoints: TRANSACTION,
    compute: ({ inputs, ipCountry }) => {
      const billing = textAt(objectAt(inputs.payload.billingAddress).country);
      const country = billing === null ? null : alpha3Country(billing);
      return country === null || ipCountry === null ? null : country !== ipCountry;
    },
  }),
  defineFeature({
    name: 'cardVirtual',
    type: 'bool',
    description: 'A card the money goes to is virtual (`virtualCard` of a card payment method); null when no card says.',
    checkpoints: CARD_METHOD_CHECKPOINTS,
    compute: ({ facts }) => anyCardFlag(facts, 'virtualCard'),
  }),
  defineFeature({
    name: 'cardCorporate',
    type: 'bool',
    description: 'A card the money goes to is a corporate card (`corporateCard`); null when no card says.',
    checkpoints: CARD_METHOD_CHECKPOINTS,
    compute: ({ facts }) => anyCardFlag(facts, 'corporateCard'),
  }),
  defineFeature({
    name: 'cvvResult',
    type: 'string',
    description: 'The processor\'s CVV check result as sent, upper case (`PASS`, `NO_MATCH`, …); null when not sent.',
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => upper(transaction(inputs).cvvResultCode),
  }),
  defineFeature({
    name: 'cvvMismatch',
    type: 'bool',
    description: 'The CVV check failed (a result containing `NO_MATCH`, `MISMATCH`, `NOT_MATCH` or `FAIL`); null when not sent.',
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => {
      const result = upper(transaction(inputs).cvvResultCode);
      return result === null ? null : MISMATCH.test(result);
    },
  }),
  defineFeature({
    name: 'avsMismatch',
    type: 'bool',
    description: 'The address check failed for the postal code or the street (`avsResultCode`); null when neither was sent.',
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => {
      const avs = objectAt(transaction(inputs).avsResultCode);
      const results = [upper(avs.postalCode), upper(avs.street)].filter((result): result is string => result !== null);
      return results.length === 0 ? null : results.some((result) => MISMATCH.test(result));
    },
  }),
  defineFeature({
    name: 'threeDsAttempted',
    type: 'bool',
    description: 'The request carries a 3-D Secure result (`threeds`).',
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => threeDs(inputs) !== null,
  }),
  defineFeature({
    name: 'threeDsTransStatus',
    type: 'string',
    description: 'The EMV 3-D Secure transaction status as sent (`Y`, `A`, `N`, `R`, `U`, `C`, …); null when not sent.',
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => upper(threeDs(inputs)?.transStatus),
  }),
  defineFeature({
    name: 'threeDsAuthenticated',
    type: 'bool',
    description: 'The cardholder was authenticated, or authentication was attempted (status `Y` or `A`); null without a status.',
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => {
      const status = upper(threeDs(inputs)?.transStatus);
      return status === null ? null : THREE_DS_AUTHENTICATED.has(status);
    },
  }),
  defineFeature({
    name: 'threeDsFailed',
    type: 'bool',
    description: 'Authentication failed or the issuer rejected it (status `N` or `R`); null without a status.',
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => {
      const status = upper(threeDs(inputs)?.transStatus);
      return status === null ? null : THREE_DS_FAILED.has(status);
    },
  }),
  defineFeature({
    name: 'threeDsLiabilityShifted',
    type: 'bool',
    description: 'Liability for fraud shifted to the issuer (`threeds.liabilityShifted`); null when not sent.',
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => booleanAt(threeDs(inputs)?.liabilityShifted),
  }),
  defineFeature({
    name: 'declineCode',
    type: 'string',
    description: 'Why the processor declined, as sent, upper case; null when not declined with a code.',
    checkpoints: TRANSACTION,
    compute: ({ facts }) => trimmed(facts.transaction?.declineCode)?.toUpperCase() ?? null,
  }),
  defineFeature({
    name: 'declined',
    type: 'bool',
    description: 'The step was declined: it carries a decline code, or `success` is false.',
    checkpoints: TRANSACTION,
    compute: ({ facts }) => facts.transaction?.declineCode !== undefined || facts.transaction?.success === false,
  }),
  defineFeature({
    name: 'declineCodeFraud',
    type: 'bool',
    description: 'The decline code says the card is lost or stolen, to be picked up, restricted, or suspected of fraud (rather than, say, short of funds); null without a code.',
    checkpoints: TRANSACTION,
    compute: ({ facts }) => {
      const code = trimmed(facts.transaction?.declineCode)?.toUpperCase() ?? null;
      return code === null ? null : FRAUD_DECLINE.test(code);
    },
  }),
  defineFeature({
    name: 'transactionType',
    type: 'string',
    description: 'The kind of processor step (`auth`, `capture`, `refund`, …) as sent, lower case; null when not sent.',
    checkpoints: TRANSACTION,
    compute: ({ facts }) => trimmed(facts.transaction?.type)?.toLowerCase() ?? null,
  }),
  defineFeature({
    name: 'currency',
    type: 'string',
    description:
      'Currency of the checkpoint\'s amount (ISO 4217, upper case): the transaction\'s, the refund\'s (else its order\'s), the payout\'s earnings\', the voucher redemption\'s. Null when not sent.',
    checkpoints: AMOUNT_CHECKPOINTS,
    compute: ({ inputs }) => moneyOf(inputs)?.currency?.toUpperCase() ?? null,
  }),
  defineFeature({
    name: 'amountMajorUnits',
    type: 'double',
    description:
      'The checkpoint\'s amount in major units of its currency (minor units ÷ 10^digits of ISO 4217: 1999 GBP → 19.99, 1999 JPY → 1999): the transaction amount, the refund amount, the payout\'s `totalNetAmount`, the redeemed voucher value. Not comparable across currencies. Null without an amount and a known currency.',
    checkpoints: AMOUNT_CHECKPOINTS,
    compute: ({ inputs }) => amountInMajorUnits(inputs),
  }),
  defineFeature({
    name: 'amountLargeRatio',
    type: 'double',
    description:
      'The amount as a share of its currency\'s large-amount threshold (about US$1,000 for a transaction or refund, five times that for a payout; docs/api.md, "Amounts and currencies"), three decimals: comparable across currencies. Null without an amount or for a currency without a threshold.',
    checkpoints: LARGE_AMOUNT_CHECKPOINTS,
    compute: ({ inputs }) => {
      const ratio = largeAmountRatio(inputs);
      return ratio === null ? null : rounded(ratio, 3);
    },
  }),
  defineFeature({
    name: 'amountLarge',
    type: 'bool',
    description: 'The amount is at least its currency\'s large-amount threshold (`amountLargeRatio` ≥ 1); null when that cannot be judged.',
    checkpoints: LARGE_AMOUNT_CHECKPOINTS,
    compute: ({ inputs }) => {
      const ratio = largeAmountRatio(inputs);
      return ratio === null ? null : ratio >= 1;
    },
  }),
];
