import type { AddLookupIndicatorsRequest } from '@ringfence/contracts';
import { contentId, toSubmission } from './lookup-submission';

const T = 1_763_800_000_000;

function addRequest(overrides: Partial<AddLookupIndicatorsRequest> = {}): AddLookupIndicatorsRequest {
  return { timestamp: T, email: { address: 'Fraud@Example.com' }, ...overrides };
}

describe(toSubmission.name, () => {
  it("sees each indicator at its own time, else the body's", () => {
    const submission = toSubmission(
      addRequest({ ipAddress: { address: '2001:DB8::1', timestamp: T - 1000 }, paymentMethod: { bankId: ' GB29NWBK ' } }),
    );

    expect(submission.indicators).toEqual([
      { kind: 'email', value: 'fraud@example.com', seenAt: T },
      { kind: 'ipAddress', value: '2001:db8::1', seenAt: T - 1000 },
      { kind: 'bankId', value: 'GB29NWBK', seenAt: T },
    ]);
  });

  it('makes every chargeback and review evidence of the body, identified by their ids', () => {
    const submission = toSubmission(
      addRequest({ chargebacks: [{ chargebackId: 'cb-1', reason: 'FRAUD' }], manualReviews: [{ reviewId: 'rev-1', comment: 'stolen' }] }),
    );

    expect(submission.evidence).toEqual([
      { evidenceKind: 'chargeback', evidenceId: 'cb-1', details: { chargebackId: 'cb-1', reason: 'FRAUD' } },
      { evidenceKind: 'manualReview', evidenceId: 'rev-1', details: { reviewId: 'rev-1', comment: 'stolen' } },
    ]);
  });

  it('records indicators without evidence as one bare report', () => {
    expect(toSubmission(addRequest({ chargebacks: [], manualReviews: [] })).evidence).toEqual([
      { evidenceKind: 'report', evidenceId: 'report', details: {} },
    ]);
  });

  it('identifies evidence without an id by its content, and counts the same content once', () => {
    const submission = toSubmission(
      addRequest({
        chargebacks: [
          { reason: 'FRAUD', amount: 100 },
          { amount: 100, reason: 'FRAUD' },
          { amount: 200, reason: 'FRAUD' },
        ],
      }),
    );

    expect(submission.evidence).toHaveLength(2);
    expect(submission.evidence[0].evidenceId).toMatch(/^content:[0-9a-f]{64}$/);
    expect(submission.evidence[0].evidenceId).toBe(contentId({ amount: 100, reason: 'FRAUD' }));
  });

  it('refuses a body without an indicator', () => {
    expect(() => toSubmission({ timestamp: T, chargebacks: [{ chargebackId: 'cb-1' }] })).toThrow(
      'body: must name at least one of email, telephone, ipAddress, paymentMethod',
    );
  });

  it('refuses a payment method without exactly one identifier', () => {
    expect(() => toSubmission(addRequest({ paymentMethod: { instrumentId: 'a', payerId: 'b' } }))).toThrow(
      'paymentMethod: must carry exactly one of instrumentId, payerId, bankId',
    );
    expect(() => toSubmission(addRequest({ paymentMethod: {} }))).toThrow(/exactly one/);
  });

  it('refuses a telephone country that does not exist', () => {
    expect(() => toSubmission(addRequest({ telephone: { number: '07700900123', countryCode: 'XYZ' } }))).toThrow(/^telephone\.countryCode: /);
  });
});

describe(contentId.name, () => {
  it('does not depend on key order at any level, and tells different content apart', () => {
    expect(contentId({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(contentId({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }));
    expect(contentId({ a: 1 })).not.toBe(contentId({ a: 2 }));
    expect(contentId({ a: [1, 2] })).not.toBe(contentId({ a: [2, 1] }));
  });
});
