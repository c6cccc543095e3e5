import type { DeviceMessage, DeviceSummaryMessage } from '@ringfence/contracts';

/** A device's summary for scoring's features (the contracts' `DeviceSummaryMessage`). */
export type DeviceSummary = DeviceSummaryMessage;

/** Counts and reported facts of a device, for features; `latestSession` the one seen last. */
export function summariseDevice(device: DeviceMessage): DeviceSummary {
  const latestSession = device.sessions.reduce<DeviceMessage['sessions'][number] | null>((latest, session) => (latest === null || session.lastSeen >= latest.lastSeen ? session : latest), null);
  return {
    deviceId: device.deviceId,
    firstSeen: device.firstSeen,
    lastSeen: device.lastSeen,
    sessionCount: device.sessions.length,
    eventCount: Object.values(device.eventCounts).reduce((sum, count) => sum + count, 0),
    eventCounts: { ...device.eventCounts },
    distinctCustomers: device.customers.length,
    distinctCards: device.cards.length,
    distinctIpAddresses: device.ipAddresses.length,
    distinctFingerprints: device.fingerprints.length,
    webdriver: device.reported?.webdriver ?? null,
    timeZone: device.reported?.timeZone ?? null,
    fingerprint: device.reported?.fingerprint ?? null,
    latestSession,
  };
}
