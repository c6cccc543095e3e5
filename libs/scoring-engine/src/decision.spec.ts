import fc from 'fast-check';
import { type DecisionSignals, decide } from './decision';

const quiet: DecisionSignals = {
  labels: [],
  unforgivenChargeback: false,
  ruleAction: null,
  lookup: null,
  hopsToFraud: -1,
  voucherNetwork: null,
  model: { score: 10, action: 'ALLOW' },
};
const abusedVoucher = { uses: 3, threshold: 3, abuse: true };

describe(decide.name, () => {
  it('falls back to the model', () => {
    expect(decide(quiet)).toEqual({ action: 'ALLOW', source: 'RINGFENCE', score: 10, reason: 'model score 10' });
  });

  it.each([
    [{ labels: ['FRAUDSTER'] }, 'PREVENT', 'MANUAL_REVIEW'],
    [{ labels: ['FRAUDULENT'] }, 'PREVENT', 'MANUAL_REVIEW'],
    [{ labels: ['GENUINE'], unforgivenChargeback: true }, 'ALLOW', 'MANUAL_REVIEW'],
    [{ labels: ['UNREVIEWED'], unforgivenChargeback: true }, 'PREVENT', 'CHARGEBACK'],
    [{ unforgivenChargeback: true, ruleAction: 'ALLOW' as const }, 'PREVENT', 'CHARGEBACK'],
    [{ ruleAction: 'REVIEW' as const, lookup: 'own' as const }, 'REVIEW', 'RULE'],
    [{ lookup: 'own' as const, hopsToFraud: 2 }, 'PREVENT', 'LOOKUP'],
    [{ lookup: 'consortium' as const, hopsToFraud: 2 }, 'REVIEW', 'LOOKUP'],
    [{ hopsToFraud: 2 }, 'REVIEW', 'NETWORK'],
    [{ hopsToFraud: 4 }, 'ALLOW', 'RINGFENCE'],
    [{ voucherNetwork: abusedVoucher }, 'REVIEW', 'NETWORK'],
    [{ voucherNetwork: { ...abusedVoucher, uses: 2, abuse: false } }, 'ALLOW', 'RINGFENCE'],
    // Refund abuse: the refund checkpoint passes the REFUND_ABUSE category's label too.
    [{ labels: ['REFUND_ABUSE'] }, 'PREVENT', 'MANUAL_REVIEW'],
    [{ labels: ['GENUINE', 'REFUND_ABUSE'] }, 'PREVENT', 'MANUAL_REVIEW'],
    [{ labels: ['NOT_REFUND_ABUSE'] }, 'ALLOW', 'MANUAL_REVIEW'],
    [{ labels: ['FRAUDSTER', 'NOT_REFUND_ABUSE'] }, 'PREVENT', 'MANUAL_REVIEW'],
    [{ labels: ['POTENTIALLY_FRAUDSTER', 'NOT_REFUND_ABUSE'] }, 'REVIEW', 'MANUAL_REVIEW'],
  ])('applies the precedence of ADR-0001 to %j', (signals, action, source) => {
    expect(decide({ ...quiet, ...signals })).toMatchObject({ action, source });
  });

  it("lets other accounts' lookup evidence REVIEW but never PREVENT, and never lower the model's PREVENT", () => {
    expect(decide({ ...quiet, lookup: 'consortium', model: { score: 60, action: 'REVIEW' } })).toMatchObject({ action: 'REVIEW', source: 'LOOKUP', score: 60 });
    expect(decide({ ...quiet, lookup: 'consortium', model: { score: 10, action: 'ALLOW' } })).toMatchObject({ action: 'REVIEW', source: 'LOOKUP', score: 50 });
    expect(decide({ ...quiet, lookup: 'consortium', model: { score: 85, action: 'PREVENT' } })).toMatchObject({ action: 'PREVENT', source: 'RINGFENCE' });
  });

  it('keeps the model\'s score when a rule decides: the action is the rule\'s, the score the model\'s', () => {
    expect(decide({ ...quiet, ruleAction: 'REVIEW', model: { score: 12, action: 'ALLOW' } })).toMatchObject({ action: 'REVIEW', source: 'RULE', score: 12 });
    expect(decide({ ...quiet, ruleAction: 'PREVENT', model: { score: 3, action: 'ALLOW' } })).toMatchObject({ action: 'PREVENT', source: 'RULE', score: 3 });
    // 100 only when the model said so: a REVIEW rule then lowers the model's PREVENT.
    expect(decide({ ...quiet, ruleAction: 'REVIEW', model: { score: 100, action: 'PREVENT' } })).toMatchObject({ action: 'REVIEW', source: 'RULE', score: 100 });
  });

  it('says why, for the decision event', () => {
    expect(decide({ ...quiet, labels: ['GENUINE', 'REFUND_ABUSE'] }).reason).toBe('current label REFUND_ABUSE');
    expect(decide({ ...quiet, voucherNetwork: { uses: 4, threshold: 3, abuse: true } }).reason).toBe(
      "voucher abuse: 4 successful uses of the code in the customer's network (threshold 3)",
    );
    expect(decide({ ...quiet, lookup: 'consortium' }).reason).toMatch(/other accounts/);
  });

  it('never answers with a source whose signal is absent', () => {
    fc.assert(
      fc.property(
        fc.record({
          labels: fc.subarray(['FRAUDSTER', 'GENUINE', 'POTENTIALLY_FRAUDSTER', 'UNREVIEWED', 'REFUND_ABUSE', 'NOT_REFUND_ABUSE']),
          unforgivenChargeback: fc.boolean(),
          ruleAction: fc.constantFrom(null, 'ALLOW' as const, 'REVIEW' as const, 'PREVENT' as const),
          lookup: fc.constantFrom(null, 'own' as const, 'consortium' as const),
          hopsToFraud: fc.integer({ min: -1, max: 6 }),
          voucherNetwork: fc.option(fc.record({ uses: fc.nat(6), threshold: fc.integer({ min: 1, max: 4 }), abuse: fc.boolean() })),
          model: fc.record({ score: fc.integer({ min: 0, max: 100 }), action: fc.constantFrom('ALLOW' as const, 'REVIEW' as const, 'PREVENT' as const) }),
        }),
        (signals) => {
          const { action, source, score } = decide(signals);
          if (source === 'CHARGEBACK') expect(signals.unforgivenChargeback).toBe(true);
          if (source === 'RULE') expect(signals.ruleAction).not.toBeNull();
          if (source === 'LOOKUP') expect(signals.lookup).not.toBeNull();
          // One account's report never blocks another account's customers.
          if (source === 'LOOKUP' && action === 'PREVENT') expect(signals.lookup).toBe('own');
          if (source === 'NETWORK') expect(signals.hopsToFraud > 0 || signals.voucherNetwork?.abuse === true).toBe(true);
          if (source === 'NETWORK' || (source === 'LOOKUP' && signals.lookup === 'consortium')) expect(action).toBe('REVIEW');
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(100);
        },
      ),
    );
  });
});
