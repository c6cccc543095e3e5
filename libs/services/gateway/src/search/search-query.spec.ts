import { cardValue, searchCandidates } from './search-query';

const kinds = (query: string) => searchCandidates(query).map((candidate) => candidate.kind);

describe(searchCandidates.name, () => {
  it('reads an e-mail as an e-mail, and as the ids it could also be', () => {
    expect(kinds('Ada@Example.com')).toEqual(['customerId', 'supplierId', 'email', 'instrument', 'device']);
    expect(searchCandidates('  Ada@Example.com ')).toContainEqual({ kind: 'email', value: 'Ada@Example.com' });
  });

  it('reads digits as a phone, and a BIN with the last four as a card', () => {
    expect(kinds('+44 7700 900123')).toContain('phone');
    expect(kinds('+44 7700 900123')).not.toContain('card');
    expect(searchCandidates('411111 1111')).toEqual(expect.arrayContaining([{ kind: 'card', value: '411111…1111' }]));
    expect(kinds('12345')).not.toContain('phone');
  });

  it('reads IPv4 and IPv6 addresses as IP addresses (IPv6 lower-cased)', () => {
    expect(searchCandidates('203.0.113.7')).toContainEqual({ kind: 'ip', value: '203.0.113.7' });
    expect(searchCandidates('2001:DB8::1')).toContainEqual({ kind: 'ip', value: '2001:db8::1' });
    expect(kinds('203.0.113')).not.toContain('ip');
  });

  it('reads any other text as ids only', () => {
    expect(kinds('cus-61213')).toEqual(['customerId', 'supplierId', 'instrument', 'device']);
  });

  it('forces one reading with kind, and none when the text cannot be that kind', () => {
    expect(searchCandidates('ada@example.com', 'customerId')).toEqual([{ kind: 'customerId', value: 'ada@example.com' }]);
    expect(searchCandidates('411111…1111', 'card')).toEqual([{ kind: 'card', value: '411111…1111' }]);
    expect(searchCandidates('not a card', 'card')).toEqual([]);
    expect(searchCandidates('   ')).toEqual([]);
  });
});

describe(cardValue.name, () => {
  it.each(['411111…1111', '411111...1111', '411111******1111', '411111 1111', '411111-1111', '41111111 1111', '411111xxxxxx1111'])('reads %s', (text) => {
    expect(cardValue(text)).toMatch(/^[0-9]{6,8}…1111$/);
  });

  it.each(['4111111111111111', '4111 1111', '411111 111', 'ada'])('does not read %s as a BIN and last four', (text) => {
    expect(cardValue(text)).toBeNull();
  });
});
