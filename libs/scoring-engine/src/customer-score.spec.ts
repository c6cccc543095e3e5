import fc from 'fast-check';
import { extractCustomerFeatures } from './customer-features';
import { DEFAULT_THRESHOLDS, scoreCustomer } from './customer-score';

const NOW = 1_763_800_000_000;
const HOUR = 3_600_000;

const wellKnownCustomer = {
  email: 'ada.lovelace@example.com',
  emailVerifiedTime: NOW - 400 * 24 * HOUR,
  telephone: '+447700900123',
  telephoneVerifiedTime: NOW - 400 * 24 * HOUR,
  registrationTime: NOW - 500 * 24 * HOUR,
  name: 'Ada Lovelace',
};

describe(scoreCustomer.name, () => {
  it('allows an established, verified customer with score 0', () => {
    expect(scoreCustomer(extractCustomerFeatures(wellKnownCustomer, true, NOW))).toMatchObject({ score: 0, action: 'ALLOW' });
  });

  it('prevents a brand-new customer with a machine-made, unverified address and no name', () => {
    const features = extractCustomerFeatures({ email: '83920193x@mail.test', registrationTime: NOW - 60_000 }, false, NOW);
    const result = scoreCustomer(features);
    expect(result.action).toBe('PREVENT');
    expect(result.contributions.map((item) => item.feature)).toEqual(
      expect.arrayContaining(['emailVerified', 'accountAgeHours', 'hasName', 'emailLocalPartDigitRatio']),
    );
  });

  it('allows a bare customer id but reviews unverified contact details on a new account', () => {
    expect(scoreCustomer(extractCustomerFeatures({}, false, NOW))).toMatchObject({ score: 30, action: 'ALLOW' });
    const unverifiedNewcomer = { email: 'a@b.c', telephone: '1', registrationTime: NOW - 10 * 60_000 };
    expect(scoreCustomer(extractCustomerFeatures(unverifiedNewcomer, false, NOW))).toMatchObject({ score: 60, action: 'REVIEW' });
  });

  it('keeps the score within 0..100 and the action consistent with the thresholds', () => {
    fc.assert(
      fc.property(
        fc.record({
          email: fc.option(fc.emailAddress(), { nil: undefined }),
          emailVerifiedTime: fc.option(fc.integer({ min: 0, max: NOW }), { nil: undefined }),
          telephone: fc.option(fc.string(), { nil: undefined }),
          registrationTime: fc.option(fc.integer({ min: 0, max: NOW + HOUR }), { nil: undefined }),
          name: fc.option(fc.string(), { nil: undefined }),
        }),
        fc.boolean(),
        (customer, hasDevice) => {
          const { score, action } = scoreCustomer(extractCustomerFeatures(customer, hasDevice, NOW));
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(100);
          const expected = score >= DEFAULT_THRESHOLDS.prevent ? 'PREVENT' : score >= DEFAULT_THRESHOLDS.review ? 'REVIEW' : 'ALLOW';
          expect(action).toBe(expected);
        },
      ),
    );
  });
});
