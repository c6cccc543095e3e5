import { toAddLookupIndicatorsRequest } from './lookup.use-case';

describe(toAddLookupIndicatorsRequest.name, () => {
  it('puts every time of the body in epoch milliseconds, whatever unit it was sent in', () => {
    const request = toAddLookupIndicatorsRequest({
      timestamp: 1_763_800_000,
      email: { address: 'a@b.example', timestamp: 1_763_700_000_000 },
      telephone: { number: '+447700900123', timestamp: 1_763_700_000_000_000_000 },
      ipAddress: { address: '192.0.2.1', timestamp: 1_763_600_000 },
      paymentMethod: { instrumentId: 'card-1' },
      chargebacks: [{ chargebackId: 'cb-1', disputeTime: 1_763_750_000 }],
      manualReviews: [{ reviewId: 'r-1', timestamp: 1_763_760_000_000 }, { reviewId: 'r-2' }],
    });

    expect(request).toEqual({
      timestamp: 1_763_800_000_000,
      email: { address: 'a@b.example', timestamp: 1_763_700_000_000 },
      telephone: { number: '+447700900123', timestamp: 1_763_700_000_000 },
      ipAddress: { address: '192.0.2.1', timestamp: 1_763_600_000_000 },
      paymentMethod: { instrumentId: 'card-1', timestamp: undefined },
      chargebacks: [{ chargebackId: 'cb-1', disputeTime: 1_763_750_000_000 }],
      manualReviews: [
        { reviewId: 'r-1', timestamp: 1_763_760_000_000 },
        { reviewId: 'r-2', timestamp: undefined },
      ],
    });
  });
});
