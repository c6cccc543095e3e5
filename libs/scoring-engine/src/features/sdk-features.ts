import type { Checkpoint, DeviceSessionMessage, DeviceSummaryMessage } from '@ringfence/contracts';
import { type FeatureDefinition, type FeatureSourceReader, type FeatureType, type FeatureTypeValues, defineFeature } from './feature-definition';
import { ipAddressCountry, timeZoneCountries } from './reference-data';

/**
 * The checkpoints that know a device or a customer (whose last device is on record): every one
 * but payouts, whose subject is a supplier.
 */
export const SDK_CHECKPOINTS: readonly Checkpoint[] = ['customer', 'registration', 'refund', 'voucherRedemption', 'transaction'];

const WHICH_DEVICE =
  'The device is the request\'s `device.deviceId`, else the customer\'s last device on record (`lastDeviceId`); its read model is ingestion\'s, asked within half the checkpoint\'s budget.';

/** The summary of a device the SDK reported (it sent client events), else null. */
function sdkSummary({ inputs }: FeatureSourceReader): DeviceSummaryMessage | null {
  const summary = inputs.sdkDevice?.summary ?? null;
  return summary !== null && summary.sessionCount > 0 ? summary : null;
}

/** The device's latest session (the one with the newest event), when the SDK reported the device. */
function latestSession(source: FeatureSourceReader): DeviceSessionMessage | null {
  return sdkSummary(source)?.latestSession ?? null;
}

/** A feature of the SDK's report of the device: null when the SDK never reported it (or the read model did not answer). */
function fromSdk<T extends FeatureType>(name: string, type: T, description: string, read: (summary: DeviceSummaryMessage, source: FeatureSourceReader) => FeatureTypeValues[T] | null): FeatureDefinition {
  return defineFeature({
    name,
    type,
    description: `${description} Null when no client SDK reported the device, or the device read model did not answer in time.`,
    checkpoints: SDK_CHECKPOINTS,
    compute: (source) => {
      const summary = sdkSummary(source);
      return summary === null ? null : read(summary, source);
    },
  });
}

/** A feature of the device's latest session, in the same terms. */
function fromSession<T extends FeatureType>(name: string, type: T, description: string, read: (session: DeviceSessionMessage) => FeatureTypeValues[T] | null): FeatureDefinition {
  return fromSdk(name, type, description, (_summary, source) => {
    const session = latestSession(source);
    return session === null ? null : read(session);
  });
}

/**
 * Whether the reported time zone is used in another country than the IP address's: the request's
 * IP address (`ipCountry`), else the address the SDK called from last. Null when either country
 * is unknown (a zone of no country such as `UTC`, an IPv6 or private address).
 */
function timeZoneIpMismatch(summary: DeviceSummaryMessage, source: FeatureSourceReader): boolean | null {
  if (summary.timeZone === null) return null;
  const zoneCountries = timeZoneCountries(summary.timeZone);
  const ipCountry = source.ipCountry ?? (summary.lastIpAddress === null ? null : ipAddressCountry(summary.lastIpAddress));
  if (zoneCountries === null || ipCountry === null) return null;
  return !zoneCountries.includes(ipCountry);
}

/**
 * What the client SDKs (`docs/web-sdk.md`) told of the checkpoint's device and its sessions,
 * from ingestion's device read model as it stands when the checkpoint is scored (the service's
 * order of arrival: a backfill sends a device's client events before the checkpoints that
 * follow them).
 */
export const SDK_FEATURES: readonly FeatureDefinition[] = [
  defineFeature({
    name: 'sdkDeviceKnown',
    type: 'bool',
    description: `A client SDK reported the checkpoint's device (it sent client events from it). ${WHICH_DEVICE} False when the read model knows no SDK session of it; null when there is no device or the read model did not answer in time.`,
    checkpoints: SDK_CHECKPOINTS,
    compute: (source) => {
      const sdkDevice = source.inputs.sdkDevice ?? null;
      return sdkDevice === null ? null : sdkSummary(source) !== null;
    },
  }),
  fromSdk('sdkWebdriver', 'bool', 'The browser said it is automated (`navigator.webdriver`: a headless or driven browser); null also when it did not say.', (summary) => summary.webdriver),
  fromSdk('sdkSessionCount', 'int', 'Sessions of the device the SDK reported (the newest 50 are kept).', (summary) => summary.sessionCount),
  fromSdk('sdkFingerprints', 'int', 'Distinct fingerprints the device reported (a device id whose browser attributes changed, or one id shared by several browsers).', (summary) => summary.distinctFingerprints),
  fromSdk('sdkDeviceCustomerCount', 'int', 'Customers seen with the device, by the SDK or by checkpoints that named it.', (summary) => summary.distinctCustomers),
  fromSdk('sdkDeviceCardCount', 'int', 'Cards seen with the device at checkpoints.', (summary) => summary.distinctCards),
  fromSdk('sdkDeviceIpAddresses', 'int', 'IP addresses the SDK called from with the device.', (summary) => summary.distinctIpAddresses),
  fromSdk('sdkCardFieldPastes', 'int', 'Pastes into a card field (number, security code, expiry: the fields the web SDK names `cc-number`, `cc-csc`, `cc-exp`) over all the device\'s sessions.', (summary) => summary.cardFieldPastes),
  fromSdk('sdkTimeZoneIpMismatch', 'bool', 'The time zone the browser reported is not used in the IP address\'s country (the request\'s IP address, else the one the SDK called from last; time zones to countries by `countries-and-timezones`); null when either country is unknown.', timeZoneIpMismatch),
  fromSession('sdkSessionPageviews', 'int', 'Page views in the device\'s latest session (the session with the newest client event before the checkpoint).', (session) => session.eventCounts.pageview ?? 0),
  fromSession('sdkSessionEvents', 'int', 'Client events of every type in the latest session.', (session) => Object.values(session.eventCounts).reduce((sum, count) => sum + count, 0)),
  fromSession('sdkSessionSeconds', 'double', 'Seconds from the first to the last event of the latest session, on the browser\'s own clock; null for a session kept before its times were.', (session) =>
    session.firstEventTime === undefined || session.lastEventTime === undefined ? null : Math.max(0, session.lastEventTime - session.firstEventTime) / 1000,
  ),
  fromSession('sdkPasteCount', 'int', 'Pastes in the latest session, into any field.', (session) => session.eventCounts.paste ?? 0),
  fromSession('sdkCardFieldPaste', 'bool', 'The latest session pasted into a card field (a card number, security code or expiry pasted rather than typed: card testers paste from lists).', (session) => (session.cardFieldPastes ?? 0) > 0),
];
