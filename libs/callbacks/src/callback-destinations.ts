import { lookup as systemLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { CallbackAddressPolicy } from './callback-address-policy';

/** A host name's addresses, as `dns.lookup(host, {all: true})` answers them (tests inject their own). */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemHostResolver: HostResolver = (hostname) => systemLookup(hostname, { all: true, verbatim: true });

/** A connection the policy refused: the host resolved to (or was) an address callbacks may not reach. */
export class CallbackAddressRefusedError extends Error {
  readonly code = 'ERR_CALLBACK_ADDRESS_REFUSED';

  constructor(
    readonly hostname: string,
    readonly addresses: readonly string[],
  ) {
    super(`callback host ${hostname} resolved to ${addresses.join(', ') || 'no address'}, which callbacks may not reach`);
  }
}

/** How long saving a callback URL waits for its host to resolve. */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

export const CALLBACK_URL_ADDRESS_RULE = 'its host must resolve, and only to public internet addresses';
export const CALLBACK_URL_HTTP_RULE = 'must be an https URL (plain http only to the networks the operator allows in CALLBACK_ALLOWED_NETWORKS)';

/**
 * Where callbacks may go, applied twice (ADR-0016): when a URL is saved (`urlProblem`: a
 * 400 naming `callbackUrl`), and at each connection (`lookup`, given to the HTTP request), which
 * resolves the host again, checks every address it answers, and connects only to those checked.
 * The second check is the one that counts: a host name is the tenant's, and its DNS may answer a
 * public address when the URL is saved and an internal one a minute later (DNS rebinding).
 */
export class CallbackDestinations {
  constructor(
    readonly policy: CallbackAddressPolicy = new CallbackAddressPolicy(),
    private readonly resolve: HostResolver = systemHostResolver,
    private readonly resolveTimeoutMs = DEFAULT_RESOLVE_TIMEOUT_MS,
  ) {}

  /**
   * Why `url` cannot be saved as a callback URL, or null. One answer whether the host does not
   * resolve or resolves to an internal address: which internal names exist is not the tenant's to learn.
   */
  async urlProblem(url: string): Promise<string | null> {
    if (!URL.canParse(url)) return CALLBACK_URL_HTTP_RULE;
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && this.policy.allowsPlainHttp)) return CALLBACK_URL_HTTP_RULE;
    try {
      await this.permittedAddresses(hostOf(parsed), parsed.protocol);
      return null;
    } catch (error) {
      if (error instanceof CallbackAddressRefusedError || hasCode(error)) return parsed.protocol === 'http:' ? CALLBACK_URL_HTTP_RULE : CALLBACK_URL_ADDRESS_RULE;
      throw error;
    }
  }

  /**
   * The addresses `hostname` resolves to, once every one of them is allowed over `protocol`;
   * `CallbackAddressRefusedError` otherwise. An IP literal is checked as it is.
   */
  async permittedAddresses(hostname: string, protocol: string): Promise<LookupAddress[]> {
    const family = isIP(hostname);
    const addresses = family !== 0 ? [{ address: hostname, family }] : await this.resolveInTime(hostname);
    // Every address, not the first: the connection may go to any of them (happy eyeballs).
    if (addresses.length === 0 || !addresses.every(({ address }) => this.policy.permits(address, protocol))) {
      throw new CallbackAddressRefusedError(hostname, addresses.map(({ address }) => address));
    }
    return addresses;
  }

  /**
   * The `lookup` of an attempt's request: the addresses the socket may connect to are those
   * this check answered, so the connection goes to an address checked, while the URL's host
   * name still names the server for TLS (SNI, certificate verification) and `Host`.
   */
  lookup(protocol: string): LookupFunction {
    return (hostname, options, callback) => {
      this.permittedAddresses(hostname, protocol).then(
        (addresses) => {
          const wanted = options.family === 4 || options.family === 6 ? addresses.filter(({ family }) => family === options.family) : addresses;
          const [first] = wanted;
          if (first === undefined) return callback(new CallbackAddressRefusedError(hostname, []), '', 0);
          if (options.all) return callback(null, wanted);
          return callback(null, first.address, first.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
  }

  private async resolveInTime(hostname: string): Promise<LookupAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`resolving ${hostname} took over ${this.resolveTimeoutMs} ms`), { code: 'ETIMEOUT' })), this.resolveTimeoutMs);
    });
    try {
      return await Promise.race([this.resolve(hostname), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The URL's host as a resolver or `isIP` takes it: an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** A resolver's failure (ENOTFOUND, EAI_AGAIN, a timeout) carries a code; a bug does not. */
function hasCode(error: unknown): boolean {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}
