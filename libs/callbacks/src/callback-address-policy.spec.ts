import { CallbackAddressPolicy } from './callback-address-policy';

describe(CallbackAddressPolicy.name, () => {
  const policy = new CallbackAddressPolicy();

  it.each([
    ['a public IPv4 address', '93.184.216.34'],
    ['a public IPv6 address', '2606:2800:220:1:248:1893:25c8:1946'],
    ['a public IPv4 address mapped into IPv6', '::ffff:93.184.216.34'],
    ['a public IPv4 address behind the well-known NAT64 prefix', '64:ff9b::5db8:d822'],
    ['a 6to4 address of a public IPv4 address', '2002:5db8:d822::1'],
  ])('lets https reach %s (%s)', (_case, address) => {
    expect(policy.permits(address, 'https:')).toBe(true);
  });

  it.each([
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 loopback, elsewhere in 127/8', '127.45.6.7'],
    ['private 10/8', '10.0.0.1'],
    ['private 172.16/12', '172.31.255.254'],
    ['private 192.168/16', '192.168.0.10'],
    ['link-local, the cloud metadata endpoint', '169.254.169.254'],
    ['carrier-grade NAT 100.64/10', '100.64.0.1'],
    ['carrier-grade NAT, its last address', '100.127.255.254'],
    ['IPv4 multicast', '224.0.0.1'],
    ['IPv4 broadcast', '255.255.255.255'],
    ['IPv4 unspecified', '0.0.0.0'],
    ['"this network" 0/8', '0.1.2.3'],
    ['IPv4 documentation range', '192.0.2.10'],
    ['IPv4 reserved 240/4', '240.0.0.1'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['IPv6 unique-local fc00::/7', 'fd12:3456:789a::1'],
    ['IPv6 unique-local, fc half', 'fc00::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 documentation range', '2001:db8::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback, hex form', '::ffff:7f00:1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped metadata endpoint', '::ffff:169.254.169.254'],
    ['IPv4-mapped carrier-grade NAT', '::ffff:100.64.0.1'],
    ['RFC 6145 translated loopback', '::ffff:0:7f00:1'],
    ['IPv4-compatible loopback (deprecated form)', '::127.0.0.1'],
    ['IPv4-compatible public address (deprecated form)', '::93.184.216.34'],
    ['NAT64 of loopback', '64:ff9b::7f00:1'],
    ['NAT64 of a private address', '64:ff9b::a00:1'],
    ['NAT64 local-use prefix', '64:ff9b:1::a00:1'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of a private address', '2002:c0a8:1::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['not an address at all', 'localhost'],
  ])('refuses %s (%s)', (_case, address) => {
    expect(policy.permits(address, 'https:')).toBe(false);
  });

  it('never lets plain http reach a public address', () => {
    expect(policy.permits('93.184.216.34', 'http:')).toBe(false);
    expect(policy.allowsPlainHttp).toBe(false);
  });

  describe('with the operator’s allowed networks', () => {
    const allowing = new CallbackAddressPolicy(['10.20.0.0/16', 'fd00:abcd::/32', '127.0.0.0/8']);

    it('lets https and plain http reach an address inside them', () => {
      expect(allowing.permits('10.20.1.2', 'https:')).toBe(true);
      expect(allowing.permits('10.20.1.2', 'http:')).toBe(true);
      expect(allowing.permits('fd00:abcd::5', 'http:')).toBe(true);
      expect(allowing.allowsPlainHttp).toBe(true);
    });

    it('lets in the IPv4-mapped form of an allowed IPv4 address', () => {
      expect(allowing.permits('::ffff:127.0.0.1', 'http:')).toBe(true);
    });

    it('refuses the internal addresses outside them, and plain http to the public internet', () => {
      expect(allowing.permits('10.21.0.1', 'https:')).toBe(false);
      expect(allowing.permits('169.254.169.254', 'https:')).toBe(false);
      expect(allowing.permits('fd00:abce::5', 'https:')).toBe(false);
      expect(allowing.permits('93.184.216.34', 'http:')).toBe(false);
      expect(allowing.permits('93.184.216.34', 'https:')).toBe(true);
    });
  });
});
