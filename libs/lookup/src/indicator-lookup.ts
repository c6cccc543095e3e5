import type { IndicatorLookupDto, LookupIndicatorQueryDto, LookupQueryIndicator } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import type { IndicatorRef } from './indicator';
import type { IndicatorEvidenceSummary } from './lookup-indicator.repository';
import { normaliseEmail, normaliseIpAddress, normalisePaymentIdentifier, normaliseTelephone } from './normalise-indicator';

const QUERY_ORDER: readonly LookupQueryIndicator[] = ['email', 'telephone', 'ipAddress', 'instrumentId', 'payerId', 'bankId'];

/**
 * A `+` sent unencoded in a query string arrives as a space (form encoding); a telephone number
 * that starts with a space and a digit can only have been meant that way.
 */
const UNENCODED_PLUS = /^ (?=[0-9])/;

/**
 * The indicators a GET or DELETE names, normalised as POST stores them, in a fixed order.
 * @throws AppError VALIDATION_FAILED when none is named, or one cannot be normalised.
 */
export function queriedIndicators(query: LookupIndicatorQueryDto): IndicatorRef[] {
  const refs = QUERY_ORDER.flatMap((kind): IndicatorRef[] => {
    const raw = query[kind];
    return raw === undefined ? [] : [{ kind, value: normaliseQueried(kind, raw) }];
  });
  if (refs.length === 0) {
    throw new AppError('VALIDATION_FAILED', `query: must name at least one of ${QUERY_ORDER.join(', ')}`);
  }
  return refs;
}

function normaliseQueried(kind: LookupQueryIndicator, raw: string): string {
  switch (kind) {
    case 'email':
      return normaliseEmail(raw);
    case 'telephone':
      return normaliseTelephone(raw.replace(UNENCODED_PLUS, '+'));
    case 'ipAddress':
      return normaliseIpAddress(raw, 'ipAddress');
    case 'instrumentId':
    case 'payerId':
    case 'bankId':
      return normalisePaymentIdentifier(raw);
  }
}

/**
 * The answer for one asked indicator. Counts and times are over the evidence visible to the
 * account (its own, and other accounts' in aggregate); nothing says whose it is.
 */
export function toIndicatorLookup(ref: IndicatorRef, summary: IndicatorEvidenceSummary | undefined): IndicatorLookupDto {
  if (summary === undefined) {
    return {
      value: ref.value,
      known: false,
      chargebacks: 0,
      manualReviews: 0,
      firstSeen: null,
      lastSeen: null,
      sources: { chargeback: 0, manualReview: 0, report: 0 },
    };
  }
  return {
    value: ref.value,
    known: true,
    chargebacks: summary.chargebacks,
    manualReviews: summary.manualReviews,
    firstSeen: summary.firstSeen,
    lastSeen: summary.lastSeen,
    sources: { chargeback: summary.chargebacks, manualReview: summary.manualReviews, report: summary.reports },
  };
}

/** The summary of `ref` among `summaries`, if there is one. */
export function summaryOf(ref: IndicatorRef, summaries: readonly IndicatorEvidenceSummary[]): IndicatorEvidenceSummary | undefined {
  return summaries.find((summary) => summary.kind === ref.kind && summary.value === ref.value);
}
