import type { CustomerLabelRequestDto, LegacyLabelRequestDto } from '@ringfence/contracts';

/**
 * When the legacy label endpoint counts as deprecated, for the `Deprecation` header (RFC 9745):
 * 2026-11-29T00:00:00Z, the day Ringfence began serving it, and serving it only as deprecated
 * (the specification, §9.2, deprecates it and gives no date). RFC 9745 allows only a date, an
 * `@` and Unix seconds (a structured-field Date); the bare `true` of its drafts is not valid.
 */
export const LEGACY_LABEL_DEPRECATED_AT_SECONDS = 1_795_910_400;

/** The route of the customer label endpoint that replaces the legacy one, for a customer. */
export function successorLabelPath(customerId: string): string {
  return `/v2/customer/${encodeURIComponent(customerId)}/labels`;
}

/** The headers every answer of the legacy label endpoint carries: deprecated since when, and what replaces it (RFC 9745 §2, RFC 8288). */
export function deprecationHeaders(customerId: string): Record<'Deprecation' | 'Link', string> {
  return {
    Deprecation: `@${LEGACY_LABEL_DEPRECATED_AT_SECONDS}`,
    Link: `<${successorLabelPath(customerId)}>; rel="successor-version"`,
  };
}

/**
 * The legacy label event as the request of the customer label endpoint: the customer's
 * PAYMENT_FRAUD review (the legacy endpoint's only category), its comment and reviewer as sent.
 * `UNREVIEWED` is passed on as it is: in PAYMENT_FRAUD it clears the label, as the legacy
 * endpoint's UNREVIEWED did. The event's `timestamp` is not used: a review is dated when applied.
 */
export function successorLabelRequest(body: LegacyLabelRequestDto): { customerId: string; request: CustomerLabelRequestDto } {
  const { customerId, label, comment, reviewer } = body.label;
  return {
    customerId,
    request: { category: 'PAYMENT_FRAUD', review: label, ...(comment !== undefined ? { comment } : {}), ...(reviewer !== undefined ? { reviewer } : {}) },
  };
}
