import { createHash } from 'node:crypto';
import type { AddLookupIndicatorsRequest, LookupIndicatorValuesDto } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import type { EvidenceItem, IndicatorSighting, IndicatorSubmission } from './lookup-indicator.repository';
import { normaliseEmail, normaliseIpAddress, normalisePaymentIdentifier, normaliseTelephone } from './normalise-indicator';

/** The evidence id of a bare report: one per account and indicator, however often reported. */
export const REPORT_EVIDENCE_ID = 'report';

/**
 * The indicators and evidence of one POST (times already in epoch ms). Each indicator is seen at
 * its own `timestamp`, else the body's. Every chargeback and manual review is evidence for every
 * indicator of the body; without any, the indicators are recorded as bare reports.
 * @throws AppError VALIDATION_FAILED for a body without indicators, or one that cannot be normalised.
 */
export function toSubmission(request: AddLookupIndicatorsRequest): IndicatorSubmission {
  const indicators = sightingsOf(request);
  if (indicators.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'body: must name at least one of email, telephone, ipAddress, paymentMethod');
  }
  const evidence = uniqueEvidence([
    ...(request.chargebacks ?? []).map((chargeback) => evidenceItem('chargeback', chargeback.chargebackId, { ...chargeback })),
    ...(request.manualReviews ?? []).map((review) => evidenceItem('manualReview', review.reviewId, { ...review })),
  ]);
  return {
    indicators,
    evidence: evidence.length > 0 ? evidence : [{ evidenceKind: 'report', evidenceId: REPORT_EVIDENCE_ID, details: {} }],
  };
}

/** The stored values by indicator name, as the POST answer shows them. */
export function addedValues(indicators: readonly IndicatorSighting[]): LookupIndicatorValuesDto {
  return Object.fromEntries(indicators.map(({ kind, value }) => [kind, value]));
}

function sightingsOf(request: AddLookupIndicatorsRequest): IndicatorSighting[] {
  const seen = (time: number | undefined) => time ?? request.timestamp;
  const sightings: IndicatorSighting[] = [];
  const { email, telephone, ipAddress, paymentMethod } = request;
  if (email) sightings.push({ kind: 'email', value: normaliseEmail(email.address), seenAt: seen(email.timestamp) });
  if (telephone) {
    const value = normaliseTelephone(telephone.number, telephone.countryCode, 'telephone.countryCode');
    sightings.push({ kind: 'telephone', value, seenAt: seen(telephone.timestamp) });
  }
  if (ipAddress) {
    sightings.push({ kind: 'ipAddress', value: normaliseIpAddress(ipAddress.address, 'ipAddress.address'), seenAt: seen(ipAddress.timestamp) });
  }
  if (paymentMethod) {
    const identifiers = (['instrumentId', 'payerId', 'bankId'] as const).flatMap((kind) => {
      const identifier = paymentMethod[kind];
      return identifier === undefined ? [] : [{ kind, identifier }];
    });
    // The contract validates this too; the domain does not rely on every caller having done so.
    if (identifiers.length !== 1) {
      throw new AppError('VALIDATION_FAILED', 'paymentMethod: must carry exactly one of instrumentId, payerId, bankId');
    }
    const [{ kind, identifier }] = identifiers;
    sightings.push({ kind, value: normalisePaymentIdentifier(identifier), seenAt: seen(paymentMethod.timestamp) });
  }
  return sightings;
}

function evidenceItem(evidenceKind: 'chargeback' | 'manualReview', id: string | undefined, details: Record<string, unknown>): EvidenceItem {
  return { evidenceKind, evidenceId: id ?? contentId(details), details };
}

/**
 * Evidence without an id is identified by its content, so sending the same POST again does not
 * count its chargebacks twice.
 */
export function contentId(details: Record<string, unknown>): string {
  return `content:${createHash('sha256').update(canonicalJson(details)).digest('hex')}`;
}

/** JSON with object keys sorted at every level, so equal content gives equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function uniqueEvidence(items: EvidenceItem[]): EvidenceItem[] {
  const byKey = new Map<string, EvidenceItem>();
  for (const item of items) {
    const key = `${item.evidenceKind}\u0000${item.evidenceId}`;
    if (!byKey.has(key)) byKey.set(key, item);
  }
  return [...byKey.values()];
}
