import type { IndicatorEvidenceSummary, LookupIndicatorRepository } from './lookup-indicator.repository';
import { LookupIndicators } from './lookup-indicators';

const tenant = { accountId: 'acc_1', environment: 'live' as const, industry: null };

function repositoryWith(overrides: Partial<LookupIndicatorRepository> = {}): jest.Mocked<LookupIndicatorRepository> {
  return {
    add: jest.fn().mockResolvedValue(undefined),
    summarise: jest.fn().mockResolvedValue([]),
    checkpointEvidence: jest.fn().mockResolvedValue([]),
    remove: jest.fn().mockResolvedValue([]),
    ...overrides,
  } as jest.Mocked<LookupIndicatorRepository>;
}

describe(LookupIndicators.name, () => {
  it('stores the submission and answers the stored values with the evidence counted once each', async () => {
    const repository = repositoryWith();

    const { answer } = await new LookupIndicators(repository).add(tenant, {
      timestamp: 1_000,
      email: { address: ' A@B.example' },
      telephone: { number: '07700900123', countryCode: 'GBR' },
      chargebacks: [{ chargebackId: 'cb-1' }, { chargebackId: 'cb-1' }],
      manualReviews: [{ reviewId: 'r-1' }],
    });

    expect(answer).toEqual({ added: { email: 'a@b.example', telephone: '+447700900123' }, evidence: { chargebacks: 1, manualReviews: 1 } });
    expect(repository.add).toHaveBeenCalledWith(tenant, expect.objectContaining({ indicators: expect.any(Array), evidence: expect.any(Array) }));
  });

  it('reads with the filter asked, answering every indicator asked by its name', async () => {
    const known: IndicatorEvidenceSummary = {
      kind: 'ipAddress',
      value: '192.0.2.1',
      chargebacks: 2,
      manualReviews: 0,
      reports: 0,
      own: { chargebacks: 0, manualReviews: 0, reports: 0 },
      firstSeen: 5,
      lastSeen: 6,
    };
    const repository = repositoryWith({ summarise: jest.fn().mockResolvedValue([known]) });

    const answer = await new LookupIndicators(repository).read(tenant, {
      indicators: { email: 'x@y.example', ipAddress: '192.0.2.1' },
      ipFromTime: 4,
      limitIndustry: true,
    });

    expect(repository.summarise).toHaveBeenCalledWith(
      tenant,
      [
        { kind: 'email', value: 'x@y.example' },
        { kind: 'ipAddress', value: '192.0.2.1' },
      ],
      { ipSeenFrom: 4, limitIndustry: true },
    );
    expect(answer).toEqual({
      email: expect.objectContaining({ value: 'x@y.example', known: false }),
      ipAddress: expect.objectContaining({ value: '192.0.2.1', known: true, chargebacks: 2, firstSeen: 5 }),
    });
  });

  it('answers a count for every indicator a delete named, 0 for those it did not have', async () => {
    const repository = repositoryWith({ remove: jest.fn().mockResolvedValue([{ kind: 'email', value: 'x@y.example', evidenceRemoved: 3 }]) });

    const { answer } = await new LookupIndicators(repository).delete(tenant, { indicators: { email: 'X@y.example', instrumentId: 'card-1' } });

    expect(answer).toEqual({ deleted: { email: 3, instrumentId: 0 } });
  });
});
