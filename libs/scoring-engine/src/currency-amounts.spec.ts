import { LARGE_AMOUNT_MAJOR_UNITS, LARGE_PAYOUT_FACTOR, isLargeAmount, largeAmountThreshold, minorUnitDigits, sameCurrency } from './currency-amounts';

describe('currency amounts', () => {
  it('reads minor units from ISO 4217, whatever the letter case', () => {
    expect(minorUnitDigits('GBP')).toBe(2);
    expect(minorUnitDigits('jpy')).toBe(0);
    expect(minorUnitDigits('KWD')).toBe(3);
    expect(minorUnitDigits('CLF')).toBe(4);
    expect(minorUnitDigits('ZZZ')).toBeNull();
  });

  it('converts each major-unit threshold into its currency\'s minor units', () => {
    expect(largeAmountThreshold('GBP')).toBe(100_000);
    expect(largeAmountThreshold('JPY')).toBe(150_000);
    expect(largeAmountThreshold('BHD')).toBe(400_000);
    expect(largeAmountThreshold('usd', LARGE_PAYOUT_FACTOR)).toBe(500_000);
    expect(largeAmountThreshold(null)).toBeNull();
    expect(largeAmountThreshold('XAU')).toBeNull();
  });

  it('has a threshold only for ISO 4217 codes', () => {
    for (const code of Object.keys(LARGE_AMOUNT_MAJOR_UNITS)) expect(minorUnitDigits(code)).not.toBeNull();
  });

  it('judges the same number differently in different currencies', () => {
    expect(isLargeAmount({ minorUnits: 120_000, currency: 'EUR' })).toBe(true);
    expect(isLargeAmount({ minorUnits: 120_000, currency: 'JPY' })).toBe(false);
    expect(isLargeAmount({ minorUnits: 120_000, currency: null })).toBe(false);
  });

  it('compares amounts of one currency, or where one names none', () => {
    expect(sameCurrency({ minorUnits: 1, currency: 'EUR' }, { minorUnits: 1, currency: ' eur' })).toBe(true);
    expect(sameCurrency({ minorUnits: 1, currency: null }, { minorUnits: 1, currency: 'EUR' })).toBe(true);
    expect(sameCurrency({ minorUnits: 1, currency: 'EUR' }, { minorUnits: 1, currency: 'GBP' })).toBe(false);
  });
});
