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

  describe('on a budget (ADR-0016)', () => {
    const catastrophic = `'${'a'.repeat(30)}!'.matches('^(a+)+$')`;

    it('runs matches on a linear-time engine: the catastrophic pattern answers at once', () => {
      // On JavaScript's backtracking RegExp this one expression runs for minutes (2^30 paths).
      const started = performance.now();
      expect(run(catastrophic)).toBe(false);
      expect(performance.now() - started).toBeLessThan(100);
      expect(run("payload.customer.email.matches('@b\\\\.example$') && !payload.customer.email.matches('^x')")).toBe(true);
    });

    it('refuses a literal pattern the linear engine cannot take, at the position of the pattern', () => {
      expect(environment.check("payload.customer.email.matches('(?=a)b')")).toEqual({
        valid: false,
        errors: [{ message: expect.stringContaining('RE2 syntax'), position: 31 }],
      });
      expect(environment.check("payload.customer.email.matches('(a)\\\\1')").valid).toBe(false);
      expect(environment.check("payload.customer.email.matches('(a|aa){1000}')")).toEqual({
        valid: false,
        errors: [{ message: expect.stringContaining('instructions'), position: 31 }],
      });
    });

    it('fails, at run time, a pattern read from the payload that the engine refuses, and a string past the bound', () => {
      expect(() => run('payload.customer.email.matches(payload.customer.customerId)', inputs({ payload: { customer: { email: 'a', customerId: '(?=a)' } } }))).toThrow(/RE2 syntax/);
      expect(() => run("payload.customer.email.matches('^a')", inputs({ payload: { customer: { email: 'a'.repeat(4_000) } } }))).not.toThrow();
      expect(() => run("payload.customer.email.matches(payload.customer.customerId)", inputs({ payload: { customer: { email: 'a'.repeat(4_096), customerId: 'x'.repeat(1_001) } } }))).toThrow(/longer than 1000/);
    });

    it('refuses a comprehension inside another one and cel.bind, which multiply the work of one expression', () => {
      expect(environment.check('payload.customer.tags.all(x, payload.customer.tags.exists(y, y == x))')).toEqual({
        valid: false,
        errors: [{ message: expect.stringContaining('exists() inside another comprehension'), position: expect.any(Number) }],
      });
      expect(environment.check('cel.bind(e, payload.customer.email, e + e == "x")').valid).toBe(false);
      expect(environment.check('payload.customer.tags.map(x, x + "!").exists(y, y == "a!")').valid).toBe(true);
    });

    it('leaves payload values past the bounds absent: has() is false and reading them fails the rule', () => {
      const payload = { customer: { email: 'a@b.example', note: 'n'.repeat(4_097), tags: Array.from({ length: 1_001 }, () => 't'), ok: ['x'] } };

      expect(run('has(payload.customer.email) && !has(payload.customer.note) && !has(payload.customer.tags) && size(payload.customer.ok) == 1', inputs({ payload }))).toBe(true);
      expect(() => run('payload.customer.note == ""', inputs({ payload }))).toThrow(/note/);
    });
  });
});
