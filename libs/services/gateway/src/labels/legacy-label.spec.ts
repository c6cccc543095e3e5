import type { LegacyLabelRequestDto } from '@ringfence/contracts';
import { LEGACY_LABEL_DEPRECATED_AT_SECONDS, deprecationHeaders, successorLabelRequest } from './legacy-label';

const legacy = (label: LegacyLabelRequestDto['label']): LegacyLabelRequestDto => ({ timestamp: 1_763_800_000, label });

describe('the legacy label event as the customer label endpoint (issue 38)', () => {
  it('is the customer’s PAYMENT_FRAUD review, with its comment and reviewer', () => {
    const reviewer = { name: 'Grace', email: 'grace@merchant.example' };
    expect(successorLabelRequest(legacy({ customerId: 'cus-1', label: 'FRAUDSTER', comment: 'ring', reviewer }))).toEqual({
      customerId: 'cus-1',
      request: { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER', comment: 'ring', reviewer },
    });
  });

  it('passes UNREVIEWED on (it clears PAYMENT_FRAUD) and adds no comment or reviewer that was not sent', () => {
    expect(successorLabelRequest(legacy({ customerId: 'cus-2', label: 'UNREVIEWED' }))).toEqual({ customerId: 'cus-2', request: { category: 'PAYMENT_FRAUD', review: 'UNREVIEWED' } });
  });

  it('answers an RFC 9745 Deprecation date and a Link to the successor, the identifier percent-encoded', () => {
    expect(deprecationHeaders('cus/1 ä')).toEqual({
      Deprecation: `@${LEGACY_LABEL_DEPRECATED_AT_SECONDS}`,
      Link: '</v2/customer/cus%2F1%20%C3%A4/labels>; rel="successor-version"',
    });
    expect(new Date(LEGACY_LABEL_DEPRECATED_AT_SECONDS * 1000).toISOString()).toBe('2026-11-29T00:00:00.000Z');
  });
});
