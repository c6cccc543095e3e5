import { cardBinOf, passesLuhn } from './card-cipher.crypto';

describe('card numbers', () => {
  it.each([
    ['4111111111111111', true],
    ['5555555555554444', true],
    ['378282246310005', true],
    ['6011111111111117', true],
    ['4242424242424242', true],
    ['4111111111111112', false],
    ['1234567812345678', false],
    ['79927398713', true],
    ['79927398710', false],
  ])('Luhn of %s is %s', (digits, valid) => {
    expect(passesLuhn(digits)).toBe(valid);
  });

  it('keeps eight digits of a 16-digit or longer number as the BIN and six of a shorter one', () => {
    expect(cardBinOf('4111111111111111')).toBe('41111111');
    expect(cardBinOf('6011000990139424123')).toBe('60110009');
    expect(cardBinOf('378282246310005')).toBe('378282');
  });
});
