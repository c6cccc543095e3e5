import fc from 'fast-check';
import { type DecisionSignals, decide } from './decision';

const quiet: DecisionSignals = {
  label: null,
  unforgivenChargeback: false,
  ruleAction: null,
  knownFraudIndicators: 0,
  hopsToFraud: -1,
  model: { score: 10, action: 'ALLOW' },
};

describe(decide.name, () => {
  it('falls back to the model', () => {
    expect(decide(quiet)).toEqual({ action: 'ALLOW', source: 'RINGFENCE', score: 10 });
  });

  it.each([
    [{ label: 'FRAUDSTER' }, 'PREVENT', 'MANUAL_REVIEW'],
    [{ label: 'FRAUDULENT' }, 'PREVENT', 'MANUAL_REVIEW'],
    [{ label: 'GENUINE', unforgivenChargeback: true }, 'ALLOW', 'MANUAL_REVIEW'],
    [{ unforgivenChargeback: true, ruleAction: 'ALLOW' as const }, 'PREVENT', 'CHARGEBACK'],
    [{ ruleAction: 'REVIEW' as const, knownFraudIndicators: 2 }, 'REVIEW', 'RULE'],
    [{ knownFraudIndicators: 1, hopsToFraud: 2 }, 'PREVENT', 'LOOKUP'],
    [{ hopsToFraud: 2 }, 'REVIEW', 'NETWORK'],
    [{ hopsToFraud: 4 }, 'ALLOW', 'RINGFENCE'],
    [{ label: 'REFUND_ABUSE' }, 'ALLOW', 'RINGFENCE'],
  ])('applies the precedence of decisions §1 to %j', (signals, action, source) => {
    expect(decide({ ...quiet, ...signals })).toMatchObject({ action, source });
  });

  it('never answers with a source whose signal is absent', () => {
    fc.assert(
      fc.property(
        fc.record({
          label: fc.constantFrom(null, 'FRAUDSTER', 'GENUINE', 'POTENTIALLY_FRAUDSTER', 'UNREVIEWED'),
          unforgivenChargeback: fc.boolean(),
          ruleAction: fc.constantFrom(null, 'ALLOW' as const, 'REVIEW' as const, 'PREVENT' as const),
          knownFraudIndicators: fc.nat(3),
          hopsToFraud: fc.integer({ min: -1, max: 6 }),
          model: fc.record({ score: fc.integer({ min: 0, max: 100 }), action: fc.constantFrom('ALLOW' as const, 'REVIEW' as const, 'PREVENT' as const) }),
        }),
        (signals) => {
          const { source, score } = decide(signals);
          if (source === 'CHARGEBACK') expect(signals.unforgivenChargeback).toBe(true);
          if (source === 'RULE') expect(signals.ruleAction).not.toBeNull();
          if (source === 'LOOKUP') expect(signals.knownFraudIndicators).toBeGreaterThan(0);
          if (source === 'NETWORK') expect(signals.hopsToFraud).toBeGreaterThan(0);
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(100);
        },
      ),
    );
  });
});
