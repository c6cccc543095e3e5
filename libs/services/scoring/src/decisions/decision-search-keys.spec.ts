import type { CheckpointScoredEvent } from '@ringfence/contracts';
import { decisionSearchKeys } from './decision-search-keys';

const tenant = { accountId: 'acc-1', environment: 'test' };

function decided(payload: Record<string, unknown>, subject: CheckpointScoredEvent['subject'] = { kind: 'customer', id: 'ada' }): CheckpointScoredEvent {
  return { checkpoint: 'transaction', timestamp: 1_763_800_000_000, recommendation: {}, features: {}, subject, context: { payload } };
}

describe(decisionSearchKeys.name, () => {
  it('keys a decision by its IP address (lower-cased) and card as BIN…last4, and maps the instrument to the card', () => {
    const keys = decisionSearchKeys(tenant, decided({ device: { deviceId: 'dev-1', ipAddress: '2001:DB8::1' }, paymentMethod: { iin: '411111', lastFour: '1111', instrumentId: 'ins-1' } }));

    expect(keys).toEqual([
      { ...tenant, keyKind: 'ip', keyValue: '2001:db8::1', subjectKind: 'customer', subjectId: 'ada' },
      { ...tenant, keyKind: 'card', keyValue: '411111…1111', subjectKind: 'customer', subjectId: 'ada' },
      { ...tenant, keyKind: 'instrument', keyValue: 'ins-1', subjectKind: 'card', subjectId: '411111…1111' },
    ]);
  });

  it('reads the card fields of every payment-method shape, once each', () => {
    const keys = decisionSearchKeys(
      tenant,
      decided({ paymentMethods: [{ methodType: 'card', cardBin: '555555', cardLastFour: '4444' }, { methodType: 'card', cardBin: '555555', cardLastFour: '4444' }] }, { kind: 'supplier', id: 'acme' }),
    );

    expect(keys).toEqual([{ ...tenant, keyKind: 'card', keyValue: '555555…4444', subjectKind: 'supplier', subjectId: 'acme' }]);
  });

  it('keys nothing without a subject, without a payload, or for a card without both BIN and last four digits', () => {
    expect(decisionSearchKeys(tenant, { ...decided({ device: { ipAddress: '203.0.113.7' } }), subject: undefined })).toEqual([]);
    expect(decisionSearchKeys(tenant, { ...decided({}), context: undefined })).toEqual([]);
    expect(decisionSearchKeys(tenant, decided({ paymentMethod: { iin: '411111' } }))).toEqual([]);
    expect(decisionSearchKeys(tenant, decided({ paymentMethod: { iin: 'abcdef', lastFour: '1111' } }))).toEqual([]);
  });
});
