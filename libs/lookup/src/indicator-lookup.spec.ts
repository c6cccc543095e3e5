import { queriedIndicators, toIndicatorLookup } from './indicator-lookup';
import type { IndicatorEvidenceSummary } from './lookup-indicator.repository';

describe(queriedIndicators.name, () => {
  it('normalises every indicator named, as POST stores them, in a fixed order', () => {
    expect(
      queriedIndicators({ bankId: ' b-1 ', ipAddress: '::FFFF:192.0.2.1', email: ' A@B.example ', telephone: '+44 7700 900123' }),
    ).toEqual([
      { kind: 'email', value: 'a@b.example' },
      { kind: 'telephone', value: '+447700900123' },
      { kind: 'ipAddress', value: '192.0.2.1' },
      { kind: 'bankId', value: 'b-1' },
    ]);
  });

  it("reads a telephone number's leading space as the + an unencoded query string turned into one", () => {
    expect(queriedIndicators({ telephone: ' 447700900123' })).toEqual([{ kind: 'telephone', value: '+447700900123' }]);
  });

  it('refuses a query without an indicator', () => {
    expect(() => queriedIndicators({})).toThrow('query: must name at least one of email, telephone, ipAddress, instrumentId, payerId, bankId');
  });
});

describe(toIndicatorLookup.name, () => {
  const ref = { kind: 'email' as const, value: 'a@b.example' };

  it('answers an indicator without visible evidence as unknown, with zeros and no times', () => {
    expect(toIndicatorLookup(ref, undefined)).toEqual({
      value: 'a@b.example',
      known: false,
      chargebacks: 0,
      manualReviews: 0,
      firstSeen: null,
      lastSeen: null,
      sources: { chargeback: 0, manualReview: 0, report: 0 },
    });
  });

  it("answers the counts over every account's evidence, without the asking account's share", () => {
    const summary: IndicatorEvidenceSummary = {
      ...ref,
      chargebacks: 3,
      manualReviews: 2,
      reports: 1,
      own: { chargebacks: 1, manualReviews: 0, reports: 1 },
      firstSeen: 1,
      lastSeen: 2,
    };

    const answer = toIndicatorLookup(ref, summary);

    expect(answer).toEqual({
      value: 'a@b.example',
      known: true,
      chargebacks: 3,
      manualReviews: 2,
      firstSeen: 1,
      lastSeen: 2,
      sources: { chargeback: 3, manualReview: 2, report: 1 },
    });
    expect(answer).not.toHaveProperty('own');
  });
});
