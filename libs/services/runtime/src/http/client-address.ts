import ipaddr from 'ipaddr.js';

/** The leading bits of an IPv6 address that one subscriber usually holds whole (RFC 6177's /64 subnet). */
const IPV6_SUBSCRIBER_PREFIX_HEXTETS = 4;

/**
 * The key a client is counted under (the keyless in-flight share, failed admin-token attempts):
 * an IPv4 address as it is (IPv4-mapped IPv6 included), an IPv6 address by its /64, since a
 * client that holds a /64 could otherwise take a fresh share with every address of it.
 *
 * The address is `request.ip`: the connection's, unless the connection comes from a proxy of
 * `TRUSTED_PROXIES` (Fastify's `trustProxy`), whose `X-Forwarded-For` then names the client.
 * Anyone else's `X-Forwarded-For` is never read. Behind a TLS-terminating proxy that is not
 * listed, every client shares the proxy's address.
 */
export function clientAddressKey(address: string | undefined): string {
  if (address === undefined || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const hextets = (parsed as ipaddr.IPv6).parts.slice(0, IPV6_SUBSCRIBER_PREFIX_HEXTETS).map((part) => part.toString(16));
  return `${hextets.join(':')}::/64`;
}
