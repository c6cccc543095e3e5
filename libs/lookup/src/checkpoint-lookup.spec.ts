import { DEFAULT_CONSORTIUM_MIN_ACCOUNTS, checkpointLookup, checkpointLookupPolicy } from './checkpoint-lookup';
import type { CheckpointIndicatorEvidence } from './lookup-indicator.repository';

const NOW = 1_763_800_000_000;
const HOUR = 3_600_000;
const none = { chargebacks: 0, manualReviews: 0, reports: 0 };

function evidence(overrides: Partial<CheckpointIndicatorEvidence> = {}): CheckpointIndicatorEvidence {
  return { kind: 'email', value: 'fraud@example.com', own: none, otherAccounts: 0, otherEvidence: none, otherLastSeen: null, ...overrides };
}

const policy = checkpointLookupPolicy({});

describe(checkpointLookupPolicy.name, () => {
  it('defaults to 3 distinct other accounts and every industry', () => {
    expect(DEFAULT_CONSORTIUM_MIN_ACCOUNTS).toBe(3);
    expect(policy).toEqual({ consortiumMinAccounts: 3, limitIndustry: false });
  });

  it("takes the account's settings, ignoring a count below 1", () => {
    expect(checkpointLookupPolicy({ lookupConsortiumMinAccounts: 5, lookupLimitIndustry: true })).toEqual({ consortiumMinAccounts: 5, limitIndustry: true });
    expect(checkpointLookupPolicy({ lookupConsortiumMinAccounts: 0 }).consortiumMinAccounts).toBe(3);
  });
});

describe(checkpointLookup.name, () => {
  it('knows nothing without evidence', () => {
    expect(checkpointLookup([], policy, NOW)).toEqual({
      verdict: null,
      features: {
        knownFraudIndicators: 0,
        lookupOwnIndicators: 0,
        lookupConsortiumIndicators: 0,
        lookupConsortiumAccounts: 0,
        lookupConsortiumChargebacks: 0,
        lookupConsortiumManualReviews: 0,
        lookupConsortiumReports: 0,
        lookupConsortiumLastSeen: null,
        lookupConsortiumLastSeenHoursAgo: null,
      },
    });
  });

  it("decides on the account's own evidence, a bare report included", () => {
    expect(checkpointLookup([evidence({ own: { ...none, reports: 1 } })], policy, NOW).verdict).toBe('own');
    expect(checkpointLookup([evidence({ own: { ...none, chargebacks: 1 }, otherAccounts: 9 })], policy, NOW).verdict).toBe('own');
  });

  it('gives another account\'s evidence no verdict below the number of distinct accounts, and "consortium" from it on', () => {
    const shared = (otherAccounts: number) => evidence({ otherAccounts, otherEvidence: { ...none, chargebacks: otherAccounts }, otherLastSeen: NOW - HOUR });
    expect(checkpointLookup([shared(1)], policy, NOW).verdict).toBeNull();
    expect(checkpointLookup([shared(2)], policy, NOW).verdict).toBeNull();
    expect(checkpointLookup([shared(3)], policy, NOW).verdict).toBe('consortium');
    expect(checkpointLookup([shared(1)], checkpointLookupPolicy({ lookupConsortiumMinAccounts: 1 }), NOW).verdict).toBe('consortium');
  });

  it('does not add up accounts over different indicators: the most behind one indicator counts', () => {
    const email = evidence({ otherAccounts: 2, otherLastSeen: NOW });
    const phone = evidence({ kind: 'telephone', value: '+447700900123', otherAccounts: 2, otherLastSeen: NOW });
    expect(checkpointLookup([email, phone], policy, NOW)).toMatchObject({ verdict: null, features: { lookupConsortiumAccounts: 2, lookupConsortiumIndicators: 2 } });
  });

  it('records how many other accounts reported, what, and how recently', () => {
    const email = evidence({ otherAccounts: 4, otherEvidence: { chargebacks: 2, manualReviews: 1, reports: 2 }, otherLastSeen: NOW - 36 * HOUR });
    const ip = evidence({ kind: 'ipAddress', value: '203.0.113.7', own: { ...none, manualReviews: 1 }, otherAccounts: 1, otherEvidence: { ...none, reports: 1 }, otherLastSeen: NOW - 2 * HOUR });

    expect(checkpointLookup([email, ip], policy, NOW).features).toEqual({
      knownFraudIndicators: 2,
      lookupOwnIndicators: 1,
      lookupConsortiumIndicators: 2,
      lookupConsortiumAccounts: 4,
      lookupConsortiumChargebacks: 2,
      lookupConsortiumManualReviews: 1,
      lookupConsortiumReports: 3,
      lookupConsortiumLastSeen: NOW - 2 * HOUR,
      lookupConsortiumLastSeenHoursAgo: 2,
    });
  });

  it('never answers a negative age for evidence seen after the checkpoint\'s time', () => {
    const late = evidence({ otherAccounts: 1, otherLastSeen: NOW + HOUR });
    expect(checkpointLookup([late], policy, NOW).features.lookupConsortiumLastSeenHoursAgo).toBe(0);
  });
});
