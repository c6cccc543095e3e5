import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Network = [Address, number];

/** The one range of ipaddr.js's classification a callback may reach without the operator's leave. */
const PUBLIC_RANGE = 'unicast';

/**
 * Which addresses review callbacks may connect to (ADR-0016, "Callbacks reach the public
 * internet only"): a tenant chooses the URL, so without this rule a callback is a request the
 * service makes into its own network for whoever asks (a cloud metadata endpoint, a sidecar's
 * admin port, a database).
 *
 * Over https, an address must be public: ipaddr.js's `unicast`, which leaves out loopback,
 * private (RFC 1918), link-local, carrier-grade NAT (100.64/10), unique-local (fc00::/7),
 * multicast, broadcast, unspecified and the reserved and documentation ranges. An IPv6 address
 * that carries an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, RFC 6145, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) is judged by the IPv4 address it reaches; IPv4-compatible (`::a.b.c.d`) and Teredo
 * addresses are refused, since what they reach cannot be told from the address alone.
 *
 * The operator's `CALLBACK_ALLOWED_NETWORKS` (CIDR ranges) are allowed too, whatever their
 * class, for receivers inside their network; plain http may go only to them (a receiver on the
 * internet gets the body and signature over TLS or not at all).
 */
export class CallbackAddressPolicy {
  private readonly allowedNetworks: readonly Network[];

  /** `allowedNetworks`: CIDR ranges (`10.1.0.0/16`, `fd00::/8`), as the config's `callbackAllowedNetworks` has them. */
  constructor(allowedNetworks: readonly string[] = []) {
    this.allowedNetworks = allowedNetworks.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  /** Whether an attempt over `protocol` (`https:` or `http:`) may connect to `address` (an IP literal). */
  permits(address: string, protocol: string): boolean {
    const parsed = parseAddress(address);
    if (parsed === null) return false;
    if (this.inAllowedNetwork(parsed)) return true;
    return protocol === 'https:' && isPublic(parsed);
  }

  /** Whether plain http may be used at all: only when the operator allowed some network. */
  get allowsPlainHttp(): boolean {
    return this.allowedNetworks.length > 0;
  }

  private inAllowedNetwork(address: Address): boolean {
    // Both forms: an operator who allowed 127.0.0.0/8 allowed ::ffff:127.0.0.1 too, and one who
    // allowed ::ffff:0:0/96 allowed the IPv4 addresses it maps.
    const forms = [address, embeddedIpv4(address)].filter((form): form is Address => form !== null);
    return forms.some((form) => this.allowedNetworks.some(([network, bits]) => network.kind() === form.kind() && form.match(network, bits)));
  }
}

/**
 * The address a socket given `text` connects to. An IPv6 text goes through the URL parser's
 * canonical form first: ipaddr.js reads `::a.b.c.d` as IPv4-mapped, while the socket (and glibc,
 * which prints IPv4-compatible addresses that way) means `::a.b.c.d` itself. A zone (`%eth0`)
 * names an interface, not a different address.
 */
function parseAddress(text: string): Address | null {
  let candidate = text;
  if (text.includes(':')) {
    try {
      candidate = new URL(`http://[${text.split('%')[0]}]/`).hostname.slice(1, -1);
    } catch {
      return null;
    }
  }
  return ipaddr.isValid(candidate) ? ipaddr.parse(candidate) : null;
}

/** A public internet address (see `CallbackAddressPolicy`). */
export function isPublic(address: Address): boolean {
  if (address.kind() === 'ipv4') return address.range() === PUBLIC_RANGE;
  const ipv6 = address as ipaddr.IPv6;
  const embedded = embeddedIpv4(ipv6);
  if (embedded !== null) return embedded.range() === PUBLIC_RANGE;
  if (ipv6.match(IPV4_COMPATIBLE)) return false;
  return ipv6.range() === PUBLIC_RANGE;
}

/** `::/96`: deprecated IPv4-compatible addresses (`::` and `::1` are classified before they are reached). */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

/** The IPv4 address an IPv6 one carries by its prefix (mapped, RFC 6145, NAT64, 6to4); null for any other. */
function embeddedIpv4(address: Address): ipaddr.IPv4 | null {
  if (address.kind() === 'ipv4') return null;
  const ipv6 = address as ipaddr.IPv6;
  const bytes = ipv6.toByteArray();
  const range = ipv6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return new ipaddr.IPv4(bytes.slice(12, 16));
  // The well-known NAT64 prefix carries the address in its last 32 bits; RFC 8215's local-use /48
  // spreads it by the network's own prefix length, so it is left unjudged (refused).
  if (range === 'rfc6052') return ipv6.match(WELL_KNOWN_NAT64) ? new ipaddr.IPv4(bytes.slice(12, 16)) : null;
  // 2002:AABB:CCDD::/48 routes to AA.BB.CC.DD.
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return null;
}
