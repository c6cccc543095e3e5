import { IsIP, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ClientEventsRequestDto } from '../http/client/client-events.request.dto';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';

/**
 * `ringfence.ingest.device.client-events.v1`: a batch of session events a client SDK sent with a
 * publishable key, as accepted (times in ms), with the client's IP address as the gateway saw it
 * (the connection's, or a trusted proxy's header: `TRUSTED_PROXIES`). Keyed by the device.
 */
export class ClientEventsReceivedEvent extends ClientEventsRequestDto {
  @IsOptional() @IsString() @IsIP() ipAddress?: string;
}

/**
 * `ringfence.rpc.ingestion.read-device.v1`: a device of the envelope's data set as the device
 * read model holds it, answered once the `devices` group has handled the account's earlier events.
 */
export class ReadDeviceRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) deviceId!: string;
}

/** What the SDK last reported of the device (`ClientDeviceDto`'s fields). */
export interface DeviceReportedMessage {
  userAgent?: string;
  languages?: string[];
  timeZone?: string;
  screen?: { width?: number; height?: number; colorDepth?: number; pixelRatio?: number };
  platform?: string;
  webdriver?: boolean;
  fingerprint?: string;
}

/** A session of the device: its times and its events counted by type. */
export interface DeviceSessionMessage {
  sessionId: string;
  firstSeen: number;
  lastSeen: number;
  eventCounts: Record<string, number>;
  /**
   * The earliest and latest event times of the session on the client's clock (epoch ms): how
   * long the shopper spent, whatever the clock's offset and however late the batches came.
   * Absent for sessions kept before they were recorded.
   */
  firstEventTime?: number;
  lastEventTime?: number;
  /** Pastes into a card field (`CARD_FIELD_KINDS`) in the session; absent: none (or kept before they were counted). */
  cardFieldPastes?: number;
}

/** An IP address, customer or card the device was seen with, and when. */
export interface DeviceSightingMessage {
  firstSeen: number;
  lastSeen: number;
}

export interface DeviceCardMessage extends DeviceSightingMessage {
  /** `instrumentId` when the payment method named one, else `paymentMethodId`. */
  instrumentId?: string;
  paymentMethodId?: string;
  cardBin?: string;
  cardLastFour?: string;
}

/** A device as the read model holds it (epoch ms times; lists newest last, each bounded). */
export interface DeviceMessage {
  deviceId: string;
  firstSeen: number;
  lastSeen: number;
  /** The newest `device` object the SDK sent; null when it sent none. */
  reported: DeviceReportedMessage | null;
  /** Every distinct fingerprint reported, oldest first. */
  fingerprints: string[];
  /** Every client event counted by type, over all sessions. */
  eventCounts: Record<string, number>;
  /** Pastes into a card field over all sessions; absent: none. */
  cardFieldPastes?: number;
  sessions: DeviceSessionMessage[];
  ipAddresses: Array<DeviceSightingMessage & { ipAddress: string }>;
  customers: Array<DeviceSightingMessage & { customerId: string }>;
  cards: DeviceCardMessage[];
}

/**
 * A device's summary for scoring's features: counts and the few reported facts a rule or model
 * reads, without the lists. `null` fields: not reported.
 */
export interface DeviceSummaryMessage {
  deviceId: string;
  firstSeen: number;
  lastSeen: number;
  sessionCount: number;
  eventCount: number;
  eventCounts: Record<string, number>;
  distinctCustomers: number;
  distinctCards: number;
  distinctIpAddresses: number;
  distinctFingerprints: number;
  /** Pastes into a card field (`CARD_FIELD_KINDS`: the card number, security code, expiry) over all sessions. */
  cardFieldPastes: number;
  /** The IP address the device was seen from last (the SDK's calls); null when none. */
  lastIpAddress: string | null;
  /** The customer the device was seen with last (SDK calls or checkpoints); null when none. */
  lastCustomerId: string | null;
  webdriver: boolean | null;
  timeZone: string | null;
  fingerprint: string | null;
  /** The session with the newest event: its id, times and counts by type. */
  latestSession: DeviceSessionMessage | null;
}

/**
 * The element kinds (`element.kind` of a client event: the web SDK names a field by its
 * autocomplete token) that hold card details: a paste into one is counted as a card-field paste.
 */
export const CARD_FIELD_KINDS: readonly string[] = ['cc-number', 'cc-csc', 'cc-exp', 'cc-exp-month', 'cc-exp-year'];

export interface ReadDeviceReply {
  /** null for a device this data set never saw. */
  device: DeviceMessage | null;
  /** The device's summary (`summariseDevice`); null with the device. */
  summary: DeviceSummaryMessage | null;
}
