import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ACCOUNT_REPOSITORY,
  API_KEY_REPOSITORY,
  type AccountRepository,
  ApiKeyAuthenticator,
  type ApiKeyRepository,
  type Principal,
  SESSION_REPOSITORY,
  SessionAuthenticator,
  type SessionRepository,
} from '@ringfence/accounts';
import { AppError, type RingfenceConfig } from '@ringfence/platform';
import { RINGFENCE_CONFIG } from '../tokens';

/** What a request's `Authorization` header proves, whatever the route it asks for. */
export interface RequestCredential {
  /** The `token` of a well-formed `Authorization: token <…>` header; undefined when there is none. */
  token: string | undefined;
  /** The token is the operator's admin token (`ADMIN_API_KEY`). */
  isAdminToken: boolean;
  /** The token is the services' internal credential (`INTERNAL_API_KEY`), which the gateway sends them. */
  isInternalCredential: boolean;
  /**
   * The active API key the token is (or the console session, issue 37: a secret key's rights
   * with the signed-in person), or the 401 of a route that needs one (missing, malformed,
   * unknown, revoked, ended or expired).
   */
  apiKey: Principal | AppError;
}

const SCHEME = /^token\s+(\S+)\s*$/i;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * The keys of a process that does not run the gateway, whose account registry (and its API keys)
 * lives in the gateway's database alone: none. Its routes take the admin token or the internal
 * credential, never an API key.
 */
const NO_API_KEYS: ApiKeyRepository = {
  insert: () => Promise.reject(new Error('this process does not hold the account registry')),
  findActiveByHash: () => Promise.resolve(null),
  findByHash: () => Promise.resolve(null),
  listForAccount: () => Promise.resolve([]),
  revoke: () => Promise.resolve(false),
};

/** A request to a request's raw message: the Fastify hooks and the Nest guard see the same one. */
type WithRaw = { raw: IncomingMessage; headers: IncomingMessage['headers'] };

/**
 * Reads a request's credential once: the load shedder asks before the body is read (to count
 * the request against the authenticated or the unauthenticated budget, ADR-0016), and the
 * access guard asks again for the route's own check, getting the same answer without a second
 * lookup. Cheap by design: the admin token is one hash compared in constant time, and an API key
 * is looked up by its hash in the key repository's in-memory cache (a sole writer holds every
 * active key; otherwise a miss is one indexed statement, remembered for the cache's TTL).
 */
@Injectable()
export class RequestCredentials {
  private readonly authenticator: ApiKeyAuthenticator;
  private readonly adminTokenHash: Buffer | null;
  private readonly internalCredentialHash: Buffer | null;
  private readonly read = new WeakMap<IncomingMessage, Promise<RequestCredential>>();

  constructor(
    @Optional() @Inject(API_KEY_REPOSITORY) keys: ApiKeyRepository | undefined,
    @Inject(RINGFENCE_CONFIG) config: RingfenceConfig,
    @Optional() @Inject(SESSION_REPOSITORY) sessions?: SessionRepository,
    @Optional() @Inject(ACCOUNT_REPOSITORY) accounts?: AccountRepository,
  ) {
    // Console sessions live beside the keys, in the process that runs the gateway.
    const sessionAuthenticator = sessions && accounts ? new SessionAuthenticator(sessions, accounts) : undefined;
    this.authenticator = new ApiKeyAuthenticator(keys ?? NO_API_KEYS, sessionAuthenticator);
    this.adminTokenHash = config.adminApiKey ? sha256(config.adminApiKey) : null;
    this.internalCredentialHash = config.internalApiKey ? sha256(config.internalApiKey) : null;
  }

  /** Whether the admin API is on (`ADMIN_API_KEY` set). */
  get adminTokenConfigured(): boolean {
    return this.adminTokenHash !== null;
  }

  /** Whether the internal routes are on (`INTERNAL_API_KEY` set). */
  get internalCredentialConfigured(): boolean {
    return this.internalCredentialHash !== null;
  }

  of(request: WithRaw): Promise<RequestCredential> {
    let credential = this.read.get(request.raw);
    if (credential === undefined) {
      credential = this.readCredential(request.headers.authorization);
      this.read.set(request.raw, credential);
    }
    return credential;
  }

  /**
   * Whether the request carries a credential some route accepts: the admin token, the internal
   * credential or an active secret key. Publishable keys do not count: no route accepts them,
   * and they are public by design (shipped in client apps). A lookup that fails (the database
   * down) counts as none here; the guard reports the failure itself.
   */
  async isAuthenticated(request: WithRaw): Promise<boolean> {
    try {
      const { isAdminToken, isInternalCredential, apiKey } = await this.of(request);
      return isAdminToken || isInternalCredential || (!(apiKey instanceof AppError) && apiKey.keyKind === 'secret');
    } catch {
      return false;
    }
  }

  /**
   * A client route's key (ADR-0015): the `Authorization` header's when the request has one,
   * else the `key` query parameter's (a beacon cannot set headers; a publishable key is public,
   * so a URL that carries it gives nothing away). The active key, or the route's 401.
   */
  async clientKeyOf(request: WithRaw & { query?: unknown }): Promise<Principal | AppError> {
    if (request.headers.authorization !== undefined) return (await this.of(request)).apiKey;
    const key = (request.query as Record<string, unknown> | undefined)?.key;
    if (typeof key !== 'string') return new AppError('UNAUTHENTICATED', 'publishable key missing; send "Authorization: token <pk_…>" or the query parameter key=<pk_…>');
    try {
      return await this.authenticator.authenticate(`token ${key}`);
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  }

  private async readCredential(header: string | undefined): Promise<RequestCredential> {
    const token = header ? SCHEME.exec(header)?.[1] : undefined;
    // Hashing first gives equal lengths, so the comparison time says nothing about the token.
    const isAdminToken = token !== undefined && this.adminTokenHash !== null && timingSafeEqual(sha256(token), this.adminTokenHash);
    const isInternalCredential = token !== undefined && this.internalCredentialHash !== null && timingSafeEqual(sha256(token), this.internalCredentialHash);
    let apiKey: Principal | AppError;
    try {
      apiKey = await this.authenticator.authenticate(header);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      apiKey = error;
    }
    return { token, isAdminToken, isInternalCredential, apiKey };
  }
}
