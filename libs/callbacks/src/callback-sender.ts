import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { CallbackAddressRefusedError, type CallbackDestinations, hostOf } from './callback-destinations';
import type { CallbackErrorClass } from './callback-error-class';

/** One POST of a callback body. */
export interface CallbackRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The attempt fails with `timeout` after this long without an answer. */
  timeoutMs: number;
  /** Aborted when the service stops: the attempt ends at once, recorded as interrupted. */
  signal: AbortSignal;
}

/**
 * What an attempt got: the receiver's status, and the class of failure unless it was a 2xx.
 * Never a throw. `detail` is the socket's own account of a failure, for the operator's log only:
 * a tenant sees the class (ADR-0016), since the messages of a refused or reset connection
 * to an address of the tenant's choosing would make the callbacks a port scanner.
 */
export interface CallbackResponse {
  httpStatus: number | null;
  /** Null when the receiver answered 2xx; `status` for any other answer. */
  error: CallbackErrorClass | null;
  detail?: string;
}

export interface CallbackSender {
  post(request: CallbackRequest): Promise<CallbackResponse>;
}

/** The most of a failure's detail that is logged. */
const MAX_DETAIL_LENGTH = 300;

/**
 * POSTs with node:http(s), each attempt on a connection of its own whose address
 * `CallbackDestinations.lookup` resolved and checked (ADR-0016): the socket connects only
 * to addresses the policy allows, while the URL's host name is kept for SNI, certificate
 * verification and `Host`. An IP literal in the URL is checked before the request (the socket
 * does not look it up). Redirects are not followed: a 3xx is an answer like any other non-2xx,
 * and the body goes only to the URL set. The answer's body is not read (only the status counts).
 */
export class HttpCallbackSender implements CallbackSender {
  constructor(private readonly destinations: CallbackDestinations) {}

  async post(request: CallbackRequest): Promise<CallbackResponse> {
    const url = new URL(request.url);
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = AbortSignal.any([request.signal, timeout]);
    try {
      // A literal is never looked up, so `lookup` would not see it: checked here instead. A
      // name is resolved and checked by `lookup`, at the connection, once.
      const host = hostOf(url);
      if (isIP(host) !== 0) await this.destinations.permittedAddresses(host, url.protocol);
      const httpStatus = await this.send(url, request, signal);
      return { httpStatus, error: httpStatus >= 200 && httpStatus < 300 ? null : 'status' };
    } catch (error) {
      if (request.signal.aborted) return { httpStatus: null, error: 'interrupted' };
      if (timeout.aborted) return { httpStatus: null, error: 'timeout', detail: `no answer within ${request.timeoutMs} ms` };
      return { httpStatus: null, error: classifyConnectionError(error), detail: detailOf(error) };
    }
  }

  private send(url: URL, request: CallbackRequest, signal: AbortSignal): Promise<number> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const outgoing = client.request(
        url,
        {
          method: 'POST',
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          // A connection of its own: a pooled socket would skip the lookup, and so the check.
          agent: false,
          lookup: this.destinations.lookup(url.protocol),
          signal,
        },
        (response) => {
          response.destroy();
          resolve(response.statusCode ?? 0);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  }
}

/** TLS failures: OpenSSL's and Node's codes for a handshake or a certificate that did not verify. */
const TLS_ERROR_CODES = new Set([
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
]);

/** The class of a failed connection, read from the error's code. */
export function classifyConnectionError(error: unknown): CallbackErrorClass {
  if (error instanceof CallbackAddressRefusedError) return 'address';
  const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : '';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ETIMEDOUT' || code === 'ETIMEOUT') return 'timeout';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'dns';
  if (TLS_ERROR_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) return 'tls';
  return 'connection';
}

function detailOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : null;
  return (code !== null && !message.includes(code) ? `${code}: ${message}` : message).slice(0, MAX_DETAIL_LENGTH);
}
