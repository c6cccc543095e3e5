import { CHECKPOINTS, type Checkpoint, type DeviceSummaryMessage, type GraphNetworkFeaturesReply, type PayloadFacts } from '@ringfence/contracts';
import type { CheckpointLookupFeatures } from '@ringfence/lookup';
import type { VoucherNetworkSignal } from '../decision';
import type { LocalTime } from './local-time';

/**
 * The types a feature can have, named as CEL names them (the rules declare `features` from the
 * catalogue): `int` values are JavaScript integers, `double` values any finite number.
 */
export type FeatureType = 'bool' | 'int' | 'double' | 'string';

/** A computed feature: null when it cannot be computed (the data it needs is missing). */
export type FeatureValue = boolean | number | string | null;

/** The JavaScript value each feature type computes to. */
export interface FeatureTypeValues {
  bool: boolean;
  int: number;
  double: number;
  string: string;
}

/** Every checkpoint: the contracts' one list (`CHECKPOINTS`). */
export const ALL_CHECKPOINTS = CHECKPOINTS;

/** What a checkpoint knows when its features are computed. Nothing here is state kept across events. */
export interface FeatureInputs {
  checkpoint: Checkpoint;
  /** The request payload in its wire JSON form (open objects as the client sent them). */
  payload: Record<string, unknown>;
  /** What the payload names, when the caller has read it already; else read here (`payloadFacts`). */
  facts?: PayloadFacts;
  /** Whose checkpoint it is: a customer's, or a supplier's (payouts, supplier registrations). */
  subjectKind: 'customer' | 'supplier';
  /** The subject's stored fields merged with this request's (as ingestion merges them). */
  subject: Record<string, unknown>;
  /**
   * The per-leaf timestamps (epoch ms) of that merged record (`/lastDeviceId` → when it was set).
   * A leaf set before `eventTimeMs` proves the subject was known before this event.
   */
  subjectFieldTimestamps: Readonly<Record<string, number>>;
  /** The payload's timestamp, epoch ms: every feature is computed in event time. */
  eventTimeMs: number;
  /** The graph's network features of the subject; null when the graph did not answer in time. */
  network: GraphNetworkFeaturesReply | null;
  /** The known-fraud lookup's features for the request's indicators. */
  lookup: CheckpointLookupFeatures;
  /** A voucher redemption's network (null when not asked or not answered). */
  voucherNetwork: VoucherNetworkSignal | null;
  /**
   * The velocity counters of the request's keys before this event (libs/scoring-engine/src/velocity),
   * by feature name; null while they are still loading after a start. The one input kept across
   * events: the scoring service holds it in memory, fed by every ingest event.
   */
  velocity?: Readonly<Record<string, number | null>> | null;
  /** The account's IANA time zone (its `timeZone` setting), for local hours and days; UTC when absent. */
  timeZone?: string | null;
  /**
   * What the device read model (ingestion's, fed by the client SDKs) answered of the checkpoint's
   * device; null (or absent) when there was no device to ask of or no answer in time.
   */
  sdkDevice?: SdkDeviceInput | null;
}

/** The device read model's answer about one device at a checkpoint. */
export interface SdkDeviceInput {
  deviceId: string;
  /** `request`: the request's `device.deviceId`; `subject`: the customer's last device on record (`lastDeviceId`). */
  source: 'request' | 'subject';
  /** The device's summary; null when the data set never saw it. */
  summary: DeviceSummaryMessage | null;
}

/**
 * One feature of the catalogue. `compute` reads the checkpoint's inputs through `FeatureSource`,
 * which parses what several features share (the e-mail, the user agent, the IP address's
 * country) once per checkpoint.
 */
export interface FeatureDefinition<T extends FeatureType = FeatureType> {
  name: string;
  type: T;
  /** What it means, for docs/features.md and the rules' documentation. */
  description: string;
  /** The checkpoints that compute it; elsewhere it is absent from the feature vector. */
  checkpoints: readonly Checkpoint[];
  compute(source: FeatureSourceReader): FeatureTypeValues[T] | null;
}

/** What `compute` reads: the inputs, and what is derived from them once per checkpoint. */
export interface FeatureSourceReader {
  readonly inputs: FeatureInputs;
  /** What the payload names (`payloadFacts` of `@ringfence/contracts`): the reading the caller handed over, else one read here. */
  readonly facts: PayloadFacts;
  readonly email: ParsedEmail | null;
  readonly userAgent: ParsedUserAgent | null;
  /** The request device's IP address country (ISO alpha-3), null when unknown. */
  readonly ipCountry: string | null;
  /** The request's device id (`deviceId` or `device.deviceId`), null when none. */
  readonly deviceId: string | null;
  /** The event's hour and weekday in the account's time zone. */
  readonly localTime: LocalTime;
}

export interface ParsedEmail {
  /** The part before the last `@`, as sent. */
  localPart: string;
  /** The domain, lower case. */
  domain: string;
}

export interface ParsedUserAgent {
  browser: string | null;
  os: string | null;
  /** `mobile`, `tablet`, `desktop`, `tv` or `bot`. */
  deviceType: string | null;
  /** A crawler, a script's HTTP client or a headless browser. */
  bot: boolean;
}

/** A catalogue entry, with `compute`'s result checked against the declared type by the compiler. */
export function defineFeature<T extends FeatureType>(definition: FeatureDefinition<T>): FeatureDefinition<T> {
  return definition;
}
