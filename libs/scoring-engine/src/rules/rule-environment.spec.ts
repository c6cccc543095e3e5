import type { RuleInputs } from './rule-context';
import { RuleEnvironment } from './rule-environment';

const FEATURES = [
  { name: 'emailDisposable', type: 'bool', description: 'd' },
  { name: 'customerTransactionCount1h', type: 'int', description: 'c' },
  { name: 'amountMajor', type: 'double', description: 'a' },
  { name: 'ipCountry', type: 'string', description: 'i' },
] as const;

function inputs(overrides: Partial<RuleInputs> = {}): RuleInputs {
  return {
    payload: { transaction: { amount: 75_000, currency: 'EUR' }, customer: { customerId: 'c-1', email: 'a@b.example' } },
    features: { emailDisposable: true, customerTransactionCount1h: 4, amountMajor: 750, ipCountry: 'FR' },
    network: { hopsToFraud: 2, networkSize: 9, networkCustomers: 3, maxNodesHit: false, growthRate: 0.5, sharedDeviceCustomers: 1, sharedCardCustomers: 0, sharedEmailCustomers: 0, sharedPhoneCustomers: 0 },
    labels: { PAYMENT_FRAUD: 'GENUINE' },
    lookup: { verdict: 'none', knownIndicators: 0, ownIndicators: 0, consortiumIndicators: 0, consortiumAccounts: 0 },
    score: 42,
    ...overrides,
  };
}

describe(RuleEnvironment.name, () => {
  const environment = new RuleEnvironment(FEATURES);
  const run = (expression: string, context = inputs()) => environment.compile(expression)(environment.context(context));

  it('accepts a boolean over every part of the context', () => {
    const expression =
      'payload.transaction.amount > 50000 && features.emailDisposable && features.customerTransactionCount1h >= 3 && network.hopsToFraud <= 2 && labels.PAYMENT_FRAUD == "GENUINE" && lookup.verdict == "none" && score < 50';
    expect(environment.check(expression)).toEqual({ valid: true, errors: [] });
    expect(run(expression)).toBe(true);
  });

  it('refuses a syntax error, an unknown name or field, and a non-boolean, with the position', () => {
    expect(environment.check('score >=')).toEqual({ valid: false, errors: [{ message: expect.stringContaining('Unexpected'), position: 8 }] });
    expect(environment.check('scor >= 80')).toEqual({ valid: false, errors: [{ message: expect.stringContaining('scor'), position: 0 }] });
    expect(environment.check('features.nothing > 1')).toEqual({ valid: false, errors: [{ message: expect.stringContaining('nothing'), position: expect.any(Number) }] });
    expect(environment.check('score + 1')).toEqual({ valid: false, errors: [{ message: 'the expression must be a boolean (bool), not int', position: 0 }] });
    expect(environment.check('labels.PAYMENT_FRAUD == 1').valid).toBe(false);
  });

  it('types the declared features: ints compare with ints and doubles, strings with strings', () => {
    expect(run('features.customerTransactionCount1h + 1 == 5')).toBe(true);
    expect(run('features.amountMajor > 700.5 && features.amountMajor > 700')).toBe(true);
    expect(run('features.ipCountry == "FR"')).toBe(true);
  });

  it('leaves a feature that was not computed absent: has() is false and reading it throws', () => {
    const context = inputs({ features: { emailDisposable: null, customerTransactionCount1h: 1, amountMajor: null, ipCountry: null } });
    expect(run('has(features.emailDisposable)', context)).toBe(false);
    expect(() => run('features.emailDisposable', context)).toThrow(/emailDisposable/);
  });

  it('leaves the network out when the graph did not answer', () => {
    expect(run('has(network.hopsToFraud)', inputs({ network: null }))).toBe(false);
    expect(() => run('network.hopsToFraud < 3', inputs({ network: null }))).toThrow();
  });

  it('gives the payload as sent, absent fields testable with has()', () => {
    expect(run('payload.customer.email.endsWith("@b.example") && !has(payload.order)')).toBe(true);
  });
});
