import { cardIdentity, customNodeIdentity, emailIdentity, identificationIdentity, phoneIdentity, vehicleIdentity } from './node-identity';

describe('node identities (ADR-0004)', () => {
  it('e-mail: trimmed and lower-cased; blank is no node', () => {
    expect(emailIdentity('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
    expect(emailIdentity('   ')).toBeNull();
    expect(emailIdentity(undefined)).toBeNull();
  });

  it('phone: E.164 with an alpha-3 or alpha-2 country, else as written, else raw digits', () => {
    expect(phoneIdentity('07700 900123', 'GBR')).toBe('+447700900123');
    expect(phoneIdentity('07700 900123', 'GB')).toBe('+447700900123');
    expect(phoneIdentity('+44 7700 900123')).toBe('+447700900123');
    expect(phoneIdentity('+44 7700 900123', 'USA')).toBe('+447700900123');
    // An unknown country code does not fail ingestion: the number is read without it.
    expect(phoneIdentity('+44 7700 900123', 'XXX')).toBe('+447700900123');
    expect(phoneIdentity('(12) 3', undefined)).toBe('123');
    expect(phoneIdentity(' ', 'GBR')).toBeNull();
  });

  it('e-mail and phone in formats nothing validates (any string is accepted) still give a node', () => {
    expect(emailIdentity('ada at example dot com')).toBe('ada at example dot com');
    expect(emailIdentity(' Ada Lovelace <ADA@Example.com> ')).toBe('ada lovelace <ada@example.com>');
    // A national number without a country cannot be read: its digits, however it is written.
    expect(phoneIdentity('020 7946 0958')).toBe('02079460958');
    expect(phoneIdentity('(020) 7946-0958', null)).toBe('02079460958');
    expect(phoneIdentity('020 7946 0958', 'GBR')).toBe('+442079460958');
    expect(phoneIdentity('call reception, ext. 12')).toBe('12');
    expect(phoneIdentity('no digits at all')).toBeNull();
  });

  it('vehicle: the VIN, else country + state + plate', () => {
    expect(vehicleIdentity({ vin: '1HGCM82633A004352', plate: 'AB12' })).toBe('vin:1HGCM82633A004352');
    expect(vehicleIdentity({ plate: 'AB12', jurisdictionCountry: 'GBR' })).toBe('plate:["GBR","","AB12"]');
    expect(vehicleIdentity({ jurisdictionCountry: 'GBR' })).toBeNull();
  });

  it('identification: kind + country + state + number, without collisions between fields', () => {
    const a = identificationIdentity('driversLicense', { idNumber: '1', jurisdictionCountry: 'USA', jurisdictionState: 'CA' });
    const b = identificationIdentity('driversLicense', { idNumber: '1', jurisdictionCountry: 'USAC', jurisdictionState: 'A' });
    expect(a).not.toBe(b);
    expect(identificationIdentity('passport', {})).toBeNull();
  });

  it('card: the instrumentId is shared; a paymentMethodId alone is scoped to its owner', () => {
    const owner = { kind: 'customer' as const, id: 'c1' };
    expect(cardIdentity({ instrumentId: 'ins', paymentMethodId: 'pm' }, owner)).toBe(cardIdentity({ instrumentId: 'ins' }, { kind: 'customer', id: 'c2' }));
    expect(cardIdentity({ paymentMethodId: 'pm' }, owner)).not.toBe(cardIdentity({ paymentMethodId: 'pm' }, { kind: 'customer', id: 'c2' }));
    expect(cardIdentity({}, owner)).toBeNull();
  });

  it('custom node: nodeType + nodeId', () => {
    expect(customNodeIdentity('store', 'a')).not.toBe(customNodeIdentity('store-a', ''));
  });
});
