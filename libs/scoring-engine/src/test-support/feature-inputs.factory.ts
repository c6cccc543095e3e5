import type { GraphNetworkFeaturesReply } from '@ringfence/contracts';
import { mergeDocument } from '@ringfence/entities';
import type { CheckpointLookupFeatures } from '@ringfence/lookup';
import type { FeatureInputs } from '../features/feature-definition';

export const NOW = 1_763_800_000_000;
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The lookup's answer when no indicator of the request is known. */
export const NO_LOOKUP_EVIDENCE: CheckpointLookupFeatures = {
  knownFraudIndicators: 0,
  lookupOwnIndicators: 0,
  lookupConsortiumIndicators: 0,
  lookupConsortiumAccounts: 0,
  lookupConsortiumChargebacks: 0,
  lookupConsortiumManualReviews: 0,
  lookupConsortiumReports: 0,
  lookupConsortiumLastSeen: null,
  lookupConsortiumLastSeenHoursAgo: null,
};

/** A subject alone in the graph: nothing shared, no fraudster near. */
export function quietNetwork(overrides: Partial<GraphNetworkFeaturesReply> = {}): GraphNetworkFeaturesReply {
  return {
    hopsToFraud: -1,
    networkSize: 3,
    networkCustomers: 1,
    maxNodesHit: false,
    networkGrowthRate: 0,
    maxOtherCustomers: { device: 0, card: 0, email: 0, phone: 0 },
    maxFraudCustomers: { device: 0, card: 0, email: 0, phone: 0 },
    maxFraudRate: { device: 0, card: 0, email: 0, phone: 0 },
    merchant: null,
    ...overrides,
  };
}

/**
 * The subject's record as the scorer sees it: what earlier events stored (`earlier`, at
 * `earlierAt`), then this request's fields merged at the event's time, per-field times included.
 */
export function storedSubject(request: Record<string, unknown>, earlier?: Record<string, unknown>, earlierAt = NOW - 30 * DAY) {
  const before = earlier ? mergeDocument(null, earlier, earlierAt) : null;
  const merged = mergeDocument(before, request, NOW) ?? before;
  return { subject: merged?.fields ?? {}, subjectFieldTimestamps: merged?.fieldTimestamps ?? {} };
}

/** A checkpoint's inputs: a customer checkpoint with nothing known, unless overridden. */
export function featureInputs(overrides: Partial<FeatureInputs> = {}): FeatureInputs {
  return {
    checkpoint: 'customer',
    payload: {},
    subjectKind: 'customer',
    subject: {},
    subjectFieldTimestamps: {},
    eventTimeMs: NOW,
    network: quietNetwork(),
    lookup: NO_LOOKUP_EVIDENCE,
    voucherNetwork: null,
    ...overrides,
  };
}

export const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
export const HEADLESS_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.71 Safari/537.36';
/** IPv4 addresses the bundled IP2Location LITE table places in these countries. */
export const IP_IN = { GBR: '81.2.69.142', FRA: '90.0.0.1', NGA: '41.58.1.1', USA: '8.8.8.8' } as const;
