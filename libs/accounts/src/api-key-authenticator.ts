import type { Environment } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import type { Account, ApiKeyRepository, KeyKind } from './account';
import { hashApiKey, parseApiKey } from './api-key';
import type { SessionAuthenticator } from './people/session-authenticator';
import { isSessionToken } from './people/session-token';

/** The console's roles, weakest first: each may do what the ones before it may (ADR-0014). */
export const USER_ROLES = ['viewer', 'analyst', 'rule_author', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** A named person signed in to the console (issue 37), as a request carries them. */
export interface SignedInUser {
  userId: string;
  email: string;
  name: string;
  role: UserRole;
}

/**
 * Who a request acts for: the tenant and which of its two data sets; `user` when a person signed
 * in (a console session), absent for an integration's API key.
 */
export interface Principal {
  account: Account;
  environment: Environment;
  keyKind: KeyKind;
  keyId: string;
  user?: SignedInUser;
}

/**
 * The name an audit trail records for whoever acted: the person's e-mail address when a person
 * signed in, else the API key's id (an integration).
 */
export function actorOf(principal: Principal): string {
  return principal.user ? principal.user.email : `key ${principal.keyId}`;
}

const SCHEME = /^token\s+(\S+)\s*$/i;

/**
 * Turns an `Authorization: token <key>` header into a principal, or throws 401. A console
 * session's token (`rfs_…`, issue 37) is accepted where the process knows sessions.
 */
export class ApiKeyAuthenticator {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly sessions?: SessionAuthenticator,
  ) {}

  async authenticate(authorizationHeader: string | undefined): Promise<Principal> {
    if (!authorizationHeader) {
      throw new AppError('UNAUTHENTICATED', 'Authorization header missing; send "Authorization: token <API key>"');
    }
    const token = SCHEME.exec(authorizationHeader)?.[1];
    if (token && isSessionToken(token)) {
      if (!this.sessions) throw new AppError('UNAUTHENTICATED', 'console sessions are not accepted here; send an API key');
      return this.sessions.authenticate(token);
    }
    if (!token || !parseApiKey(token)) {
      throw new AppError('UNAUTHENTICATED', 'Authorization header malformed; send "Authorization: token <API key>"');
    }
    const found = await this.keys.findActiveByHash(hashApiKey(token));
    if (!found) {
      throw new AppError('UNAUTHENTICATED', 'API key unknown or revoked');
    }
    return { account: found.account, environment: found.key.environment, keyKind: found.key.kind, keyId: found.key.id };
  }
}
