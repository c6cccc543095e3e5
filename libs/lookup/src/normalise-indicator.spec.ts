import { AppError } from '@ringfence/platform';
import { canonicalIpAddress, normaliseEmail, normaliseIpAddress, normalisePaymentIdentifier, normaliseTelephone, parsePhoneCountry } from './normalise-indicator';

describe(normaliseEmail.name, () => {
  it('trims and lower-cases', () => {
    expect(normaliseEmail('  Fraud.Ster@Example.COM \t')).toBe('fraud.ster@example.com');
  });
});

describe(normaliseTelephone.name, () => {
  it.each([
    ['an ISO alpha-3 country', '07700 900123', 'GBR'],
    ['an ISO alpha-2 country', '07700-900123', 'GB'],
    ['a lower-case country', '(07700) 900123', 'gbr'],
    ['a calling code', '7700 900123', '44'],
    ['a calling code with +', '7700 900123', '+44'],
    ['no country, written internationally', '+44 7700 900123', undefined],
    ['a country, written internationally anyway', '+44 7700 900123', 'USA'],
  ])('reads a number with %s as E.164', (_case, number, countryCode) => {
    expect(normaliseTelephone(number, countryCode)).toBe('+447700900123');
  });

  it('keeps the digits of a number it cannot read as a possible number', () => {
    expect(normaliseTelephone('12-34')).toBe('1234');
    expect(normaliseTelephone('07700 900123')).toBe('07700900123');
  });

  it('refuses a country code that names no country, naming the field', () => {
    expect(() => normaliseTelephone('07700900123', 'ZZZ', 'telephone.countryCode')).toThrow(
      new AppError('VALIDATION_FAILED', 'telephone.countryCode: must be an ISO 3166 alpha-3 or alpha-2 country code, or a calling code in digits'),
    );
    expect(() => normaliseTelephone('07700900123', 'UK')).toThrow(AppError);
  });

  it('reads numbers of a territory without a numbering plan only when written internationally', () => {
    expect(parsePhoneCountry('ATA', 'countryCode')).toBeNull();
    expect(normaliseTelephone('+44 7700 900123', 'ATA')).toBe('+447700900123');
  });
});

describe(canonicalIpAddress.name, () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['::1', '::1'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:FFFF:CB00:7107', '203.0.113.7'],
  ])('writes %s as %s', (text, canonical) => {
    expect(canonicalIpAddress(text)).toBe(canonical);
  });

  it.each(['300.1.2.3', '01.2.3.4', 'localhost', '2001:db8::1::2', 'fe80::1%eth0', ''])('refuses %j', (text) => {
    expect(canonicalIpAddress(text)).toBeNull();
  });
});

describe(normaliseIpAddress.name, () => {
  it('names the field when the text is not an IP address', () => {
    expect(() => normaliseIpAddress('nope', 'ipAddress.address')).toThrow('ipAddress.address: must be an IPv4 or IPv6 address');
  });
});

describe(normalisePaymentIdentifier.name, () => {
  it('keeps identifiers as they are but for surrounding spaces', () => {
    expect(normalisePaymentIdentifier(' Card-ABC ')).toBe('Card-ABC');
  });
});
