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
    cardFieldPastes: device.cardFieldPastes ?? 0,
    lastIpAddress: newestOf(device.ipAddresses)?.ipAddress ?? null,
    lastCustomerId: newestOf(device.customers)?.customerId ?? null,
    webdriver: device.reported?.webdriver ?? null,
    timeZone: device.reported?.timeZone ?? null,
    fingerprint: device.reported?.fingerprint ?? null,
    latestSession,
  };
}

/** The item seen last (lists are kept newest last, but a time tells it for sure). */
function newestOf<T extends { lastSeen: number }>(items: readonly T[]): T | null {
  return items.reduce<T | null>((latest, item) => (latest === null || item.lastSeen >= latest.lastSeen ? item : latest), null);
}
