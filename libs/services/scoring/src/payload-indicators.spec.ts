import type { CheckpointIndicatorEvidence } from '@ringfence/lookup';
import { type WireObject, payloadFacts } from '@ringfence/contracts';
import { evidenceOf, indicatorsNotIn, indicatorsOfFacts } from './payload-indicators';

const evidence = (kind: CheckpointIndicatorEvidence['kind'], value: string): CheckpointIndicatorEvidence => ({
  kind,
  value,
  own: { chargebacks: 1, manualReviews: 0, reports: 0 },
  otherAccounts: 0,
  otherEvidence: { chargebacks: 0, manualReviews: 0, reports: 0 },
  otherLastSeen: null,
});

describe('payload indicators', () => {
  const request = payloadFacts({ device: { ipAddress: '::ffff:203.0.113.7' }, paymentMethod: { instrumentId: 'card-1' } } as WireObject);

  it('reads the subject\'s e-mail and telephone and the request\'s IP address and instruments, normalised', () => {
    expect(indicatorsOfFacts({ email: ' Ada@Example.com ', telephone: '07700 900123', telephoneCountry: 'GBR' }, request)).toEqual({
      emails: ['ada@example.com'],
      phones: ['+447700900123'],
      ips: ['203.0.113.7'],
      instrumentIds: ['card-1'],
    });
  });

  it('names what the stored subject adds to what the request named, and keeps the evidence of the values still named', () => {
    const asked = indicatorsOfFacts({ email: 'sent@example.com' }, request);
    const all = indicatorsOfFacts({ email: 'stored@example.com', telephone: '+447700900123' }, request);

    expect(indicatorsNotIn(all, asked)).toEqual({ emails: ['stored@example.com'], phones: ['+447700900123'], ips: [], instrumentIds: [] });
    expect(indicatorsNotIn(asked, asked)).toEqual({ emails: [], phones: [], ips: [], instrumentIds: [] });
    expect(evidenceOf([evidence('email', 'sent@example.com'), evidence('instrumentId', 'card-1')], all)).toEqual([evidence('instrumentId', 'card-1')]);
  });
});
