import { hasUnforgivenChargeback } from '@ringfence/entities';
import { ALL_CHECKPOINTS, type FeatureDefinition, defineFeature } from './feature-definition';
import { HOUR_MS, numberAt, rounded, textAt } from './payload-values';
import { isDisposableEmailDomain } from './reference-data';

/** Name parts shorter than this are too common to say anything when found in an address. */
const MIN_NAME_PART_LETTERS = 3;

/** Lower-case ASCII letters only, accents removed: `Zoë O'Brien` → `zoeobrien`. */
function letters(text: string): string {
  return text.normalize('NFKD').toLowerCase().replace(/[^a-z]/g, '');
}

/** The subject's name parts that are long enough to look for (given, family and full name's words). */
function nameParts(subject: Record<string, unknown>): string[] {
  const words = [subject.givenName, subject.familyName, subject.name]
    .map(textAt)
    .filter((value): value is string => value !== null)
    .flatMap((value) => value.split(/[\s\-.,']+/));
  return [...new Set(words.map(letters))].filter((part) => part.length >= MIN_NAME_PART_LETTERS);
}

const present = (value: unknown) => textAt(value) !== null;

/**
 * The subject's identity, from its stored record merged with the request: the customer's or,
 * at payouts and supplier registrations, the supplier's.
 */
export const IDENTITY_FEATURES: readonly FeatureDefinition[] = [
  defineFeature({
    name: 'subjectKind',
    type: 'string',
    description: 'Whose checkpoint it is: `customer` or `supplier` (payouts, supplier registrations).',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => inputs.subjectKind,
  }),
  defineFeature({
    name: 'hasEmail',
    type: 'bool',
    description: 'The subject has an e-mail address.',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => present(inputs.subject.email),
  }),
  defineFeature({
    name: 'emailVerified',
    type: 'bool',
    description: 'The e-mail address was verified (`emailVerifiedTime` is set); null without an address.',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => (present(inputs.subject.email) ? numberAt(inputs.subject.emailVerifiedTime) !== null : null),
  }),
  defineFeature({
    name: 'hasTelephone',
    type: 'bool',
    description: 'The subject has a telephone number.',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => present(inputs.subject.telephone),
  }),
  defineFeature({
    name: 'telephoneVerified',
    type: 'bool',
    description: 'The telephone number was verified (`telephoneVerifiedTime` is set); null without a number.',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => (present(inputs.subject.telephone) ? numberAt(inputs.subject.telephoneVerifiedTime) !== null : null),
  }),
  defineFeature({
    name: 'hasName',
    type: 'bool',
    description: 'The subject has a name (`name`, `givenName` or `familyName`).',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => present(inputs.subject.name) || present(inputs.subject.givenName) || present(inputs.subject.familyName),
  }),
  defineFeature({
    name: 'accountAgeHours',
    type: 'double',
    description:
      'Hours from the subject\'s `registrationTime` to the event (never negative, two decimals). At the registration checkpoint a subject without one is registering now: 0. Null when unknown.',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => {
      const registered = numberAt(inputs.subject.registrationTime);
      if (registered === null) return inputs.checkpoint === 'registration' ? 0 : null;
      return rounded(Math.max(0, inputs.eventTimeMs - registered) / HOUR_MS, 2);
    },
  }),
  defineFeature({
    name: 'emailDomain',
    type: 'string',
    description: 'The domain of the subject\'s e-mail address, lower case; null without a well-formed address.',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ email }) => email?.domain ?? null,
  }),
  defineFeature({
    name: 'emailDisposable',
    type: 'bool',
    description:
      'The e-mail domain (or a parent domain) is a disposable-mailbox provider (mailinator.com, 10minutemail.com, …), from the community list packaged as `disposable-email-domains-js`, checked offline. Null without an address.',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ email }) => (email === null ? null : isDisposableEmailDomain(email.domain)),
  }),
  defineFeature({
    name: 'emailLocalPartDigitRatio',
    type: 'double',
    description: 'Share of digits in the e-mail\'s local part (before the `@`), three decimals: machine-made addresses (`x83920193@…`) are digit-heavy. Null without an address.',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ email }) => {
      if (email === null) return null;
      let digits = 0;
      for (const character of email.localPart) if (character >= '0' && character <= '9') digits += 1;
      return rounded(digits / email.localPart.length, 3);
    },
  }),
  defineFeature({
    name: 'emailMatchesName',
    type: 'bool',
    description: `The e-mail's local part contains the subject's given or family name (letters only, accents removed, name parts of at least ${MIN_NAME_PART_LETTERS} letters): \`ada.lovelace@…\` for Ada Lovelace. Null without an address or such a name part.`,
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs, email }) => {
      if (email === null) return null;
      const parts = nameParts(inputs.subject);
      if (parts.length === 0) return null;
      const local = letters(email.localPart);
      return parts.some((part) => local.includes(part));
    },
  }),
  defineFeature({
    name: 'unforgivenChargeback',
    type: 'bool',
    description: 'The subject\'s record holds a chargeback or dispute that was not forgiven (the CHARGEBACK source decides on it).',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => inputs.subjectKind === 'customer' && hasUnforgivenChargeback(inputs.subject),
  }),
];
