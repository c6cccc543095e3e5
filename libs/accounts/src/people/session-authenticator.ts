import { AppError } from '@ringfence/platform';
import type { AccountRepository } from '../account';
import type { Principal } from '../api-key-authenticator';
import type { SessionRepository } from './people';
import { hashSessionToken } from './session-token';

const SESSION_KEY_ID_PREFIX = 'session:';

/** The session a console principal stands for; null for an API key's principal. */
export function sessionIdOf(principal: Principal): string | null {
  return principal.user && principal.keyId.startsWith(SESSION_KEY_ID_PREFIX) ? principal.keyId.slice(SESSION_KEY_ID_PREFIX.length) : null;
}

/**
 * Turns a console session's token into a principal (issue 37): the account's secret-key rights
 * in the session's data set, and the signed-in person, whose role the access guard checks. The
 * account is read from the account repository (its cache is kept fresh by settings changes),
 * not from the session lookup, so a cached session never carries stale settings.
 */
export class SessionAuthenticator {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly accounts: AccountRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(token: string): Promise<Principal> {
    const found = await this.sessions.findActiveByHash(hashSessionToken(token));
    // A cached lookup may outlive the expiry: checked on every request, not only when read.
    if (!found || found.session.expiresAt.getTime() <= this.now()) {
      throw new AppError('UNAUTHENTICATED', 'session unknown, ended or expired; sign in again');
    }
    const account = await this.accounts.findById(found.session.accountId);
    if (!account) throw new AppError('UNAUTHENTICATED', 'session unknown, ended or expired; sign in again');
    const { user, session } = found;
    return {
      account,
      environment: session.environment,
      keyKind: 'secret',
      keyId: `${SESSION_KEY_ID_PREFIX}${session.id}`,
      user: { userId: user.id, email: user.email, name: user.name, role: user.role },
    };
  }
}
