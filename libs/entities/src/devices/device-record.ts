import { CARD_FIELD_KINDS, type ClientEventsReceivedEvent, type DeviceCardMessage, type DeviceMessage, type DeviceReportedMessage, type DeviceSessionMessage, type DeviceSightingMessage } from '@ringfence/contracts';

/**
 * A device's read model: what client SDKs reported of it, its sessions, and what checkpoints
 * named it with. Every list is bounded (`DEVICE_LIMITS`: the newest kept, oldest dropped), so a
 * device that a bot hammers for a year stays one small row. `appliedEventIds` are the bus events
 * already applied, newest last: delivery is at least once, and a counter must not count a
 * redelivered batch twice.
 */
export interface DeviceRecord extends DeviceMessage {
  appliedEventIds: string[];
}

export const DEVICE_LIMITS = {
  sessions: 50,
  ipAddresses: 50,
  customers: 100,
  cards: 100,
  fingerprints: 20,
  /** Distinct event types counted per device and per session; further custom names count as `other`. */
  eventTypes: 50,
  appliedEventIds: 64,
} as const;

/** The events of a batch past the distinct-type bound are counted under this name. */
export const OTHER_EVENT_TYPE = 'other';

/** One bus event's identity and the time the service accepted it (epoch ms): every "seen" time is the service's clock, not the client's. */
export interface AppliedEvent {
  eventId: string;
  acceptedAt: number;
}

/** What a checkpoint (any ingest payload) said of a device: who and which cards were with it. */
export interface DeviceSighting {
  deviceId: string;
  customerId?: string;
  cards: Array<Omit<DeviceCardMessage, 'firstSeen' | 'lastSeen'>>;
}

export function emptyDeviceRecord(deviceId: string, at: number): DeviceRecord {
  return { deviceId, firstSeen: at, lastSeen: at, reported: null, fingerprints: [], eventCounts: {}, sessions: [], ipAddresses: [], customers: [], cards: [], appliedEventIds: [] };
}

/**
 * The record after a batch of client events, or null when the batch was applied already (a
 * redelivery): the caller then writes nothing. Pure: a compare-and-set store may call it again.
 */
export function applyClientEvents(current: DeviceRecord | null, batch: ClientEventsReceivedEvent, applied: AppliedEvent): DeviceRecord | null {
  const record = startChange(current, batch.deviceId, applied);
  if (record === null) return null;
  const at = applied.acceptedAt;
  if (batch.device !== undefined) {
    record.reported = reportedOf(batch.device);
    const fingerprint = record.reported.fingerprint;
    if (fingerprint !== undefined && !record.fingerprints.includes(fingerprint)) record.fingerprints = newest([...record.fingerprints, fingerprint], DEVICE_LIMITS.fingerprints);
  }
  const session = sessionOf(record.sessions, batch.sessionId, at);
  for (const event of batch.events) {
    countEvent(record.eventCounts, event.type);
    countEvent(session.eventCounts, event.type);
    session.firstEventTime = Math.min(session.firstEventTime ?? event.time, event.time);
    session.lastEventTime = Math.max(session.lastEventTime ?? event.time, event.time);
    if (isCardFieldPaste(event)) {
      record.cardFieldPastes = (record.cardFieldPastes ?? 0) + 1;
      session.cardFieldPastes = (session.cardFieldPastes ?? 0) + 1;
    }
  }
  record.sessions = newest([...record.sessions.filter((other) => other.sessionId !== session.sessionId), session], DEVICE_LIMITS.sessions);
  if (batch.ipAddress !== undefined) record.ipAddresses = sighted(record.ipAddresses, (item) => item.ipAddress === batch.ipAddress, { ipAddress: batch.ipAddress }, at, DEVICE_LIMITS.ipAddresses);
  if (batch.customerId !== undefined) record.customers = sighted(record.customers, (item) => item.customerId === batch.customerId, { customerId: batch.customerId }, at, DEVICE_LIMITS.customers);
  return record;
}

/** The record after a checkpoint named the device, or null when that event was applied already. */
export function applyDeviceSighting(current: DeviceRecord | null, sighting: DeviceSighting, applied: AppliedEvent): DeviceRecord | null {
  const record = startChange(current, sighting.deviceId, applied);
  if (record === null) return null;
  const at = applied.acceptedAt;
  const { customerId } = sighting;
  if (customerId !== undefined) record.customers = sighted(record.customers, (item) => item.customerId === customerId, { customerId }, at, DEVICE_LIMITS.customers);
  for (const card of sighting.cards) {
    record.cards = sighted(record.cards, (item) => sameCard(item, card), card, at, DEVICE_LIMITS.cards);
  }
  return record;
}

/** The record as answered: without the bookkeeping of applied events. */
export function deviceMessageOf(record: DeviceRecord): DeviceMessage {
  const { appliedEventIds: _applied, ...device } = record;
  return device;
}

/** A copy of the record to change with the event noted as applied; null when it was applied already. */
function startChange(current: DeviceRecord | null, deviceId: string, { eventId, acceptedAt }: AppliedEvent): DeviceRecord | null {
  if (current?.appliedEventIds.includes(eventId)) return null;
  const base = current ?? emptyDeviceRecord(deviceId, acceptedAt);
  const record: DeviceRecord = structuredClone(base);
  record.firstSeen = Math.min(record.firstSeen, acceptedAt);
  record.lastSeen = Math.max(record.lastSeen, acceptedAt);
  record.appliedEventIds = newest([...record.appliedEventIds, eventId], DEVICE_LIMITS.appliedEventIds);
  return record;
}

function reportedOf(device: NonNullable<ClientEventsReceivedEvent['device']>): DeviceReportedMessage {
  const { userAgent, languages, timeZone, screen, platform, webdriver, fingerprint } = device;
  const reported: DeviceReportedMessage = { userAgent, languages, timeZone, platform, webdriver, fingerprint };
  if (screen !== undefined) reported.screen = { width: screen.width, height: screen.height, colorDepth: screen.colorDepth, pixelRatio: screen.pixelRatio };
  return JSON.parse(JSON.stringify(reported)) as DeviceReportedMessage;
}

function sessionOf(sessions: readonly DeviceSessionMessage[], sessionId: string, at: number): DeviceSessionMessage {
  const known = sessions.find((session) => session.sessionId === sessionId);
  if (known === undefined) return { sessionId, firstSeen: at, lastSeen: at, eventCounts: {} };
  return { ...known, firstSeen: Math.min(known.firstSeen, at), lastSeen: Math.max(known.lastSeen, at), eventCounts: { ...known.eventCounts } };
}

/** A paste into a field of card details, by the kind the SDK named it with (`cc-number`…). */
function isCardFieldPaste(event: ClientEventsReceivedEvent['events'][number]): boolean {
  const kind = event.element?.kind?.trim().toLowerCase();
  return event.type === 'paste' && kind !== undefined && CARD_FIELD_KINDS.includes(kind);
}

function countEvent(counts: Record<string, number>, type: string): void {
  const bounded = type in counts || Object.keys(counts).length < DEVICE_LIMITS.eventTypes ? type : OTHER_EVENT_TYPE;
  counts[bounded] = (counts[bounded] ?? 0) + 1;
}

/** The list with the item seen now: its times widened, moved to the end (newest last), bounded. */
function sighted<T extends DeviceSightingMessage>(items: readonly T[], matches: (item: T) => boolean, identity: Omit<T, 'firstSeen' | 'lastSeen'>, at: number, limit: number): T[] {
  const known = items.find(matches);
  const item = { ...known, ...identity, firstSeen: Math.min(known?.firstSeen ?? at, at), lastSeen: Math.max(known?.lastSeen ?? at, at) } as T;
  return newest([...items.filter((other) => other !== known), item], limit);
}

function sameCard(a: Omit<DeviceCardMessage, 'firstSeen' | 'lastSeen'>, b: Omit<DeviceCardMessage, 'firstSeen' | 'lastSeen'>): boolean {
  if (a.instrumentId !== undefined || b.instrumentId !== undefined) return a.instrumentId === b.instrumentId;
  return a.paymentMethodId === b.paymentMethodId;
}

function newest<T>(items: T[], limit: number): T[] {
  return items.length > limit ? items.slice(items.length - limit) : items;
}
