import type { Environment } from '@ringfence/contracts';
import { AppError, prefixedId } from '@ringfence/platform';
import type { UserRole } from '../api-key-authenticator';
import { assertPasswordPolicy, hashPassword, verifyAgainstNothing, verifyPassword } from './password-hashing';
import type { SessionRecord, UserChanges, UserRecord, UserRepository, SessionRepository } from './people';
import { generateSessionToken, hashSessionToken } from './session-token';

export interface NewUser {
  email: string;
  name: string;
  role: UserRole;
  password: string;
}

export interface UserUpdate {
  name?: string;
  role?: UserRole;
  password?: string;
  disabled?: boolean;
}

export interface SignedIn {
  /** The token itself: shown once, in the sign-in answer; only its hash is stored. */
  token: string;
  session: SessionRecord;
  user: UserRecord;
}

/** What a user looks like to the API: everything but the password's hash. */
export type UserView = Omit<UserRecord, 'passwordHash' | 'accountId'>;

export const userView = ({ passwordHash: _hash, accountId: _account, ...view }: UserRecord): UserView => view;

/** E-mail addresses are compared lower-cased (and trimmed): `Ann@Example.com` is `ann@example.com`. */
export const normalisedEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Issue 37's named people: an account's users (made by its admin or with its secret key) and
 * their console sessions. A session ends at its absolute expiry, at sign-out, and when its user
 * is disabled or changes role (the rights it was signed in with no longer hold).
 */
export class PeopleAdministration {
  private readonly now: () => Date;

  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly options: { sessionTtlSeconds: number; now?: () => Date },
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** 409 naming `email` when the address is taken (by anyone on this server). */
  async createUser(accountId: string, createdBy: string, input: NewUser): Promise<UserRecord> {
    assertPasswordPolicy(input.password);
    const user: UserRecord = {
      id: prefixedId('usr', 16),
      accountId,
      email: normalisedEmail(input.email),
      name: input.name,
      role: input.role,
      passwordHash: await hashPassword(input.password),
      disabled: false,
      createdAt: this.now(),
      createdBy,
    };
    if (!(await this.users.insert(user))) throw new AppError('CONFLICT', 'email: a user with this e-mail address exists');
    return user;
  }

  listUsers(accountId: string): Promise<UserRecord[]> {
    return this.users.listForAccount(accountId);
  }

  /** 404 when the account has no such user. Disabling or a new role ends the user's sessions at once. */
  async updateUser(accountId: string, userId: string, update: UserUpdate): Promise<UserRecord> {
    const current = await this.users.findById(accountId, userId);
    if (!current) throw new AppError('NOT_FOUND', `no user ${userId}`);
    const changes: UserChanges = {};
    if (update.name !== undefined) changes.name = update.name;
    if (update.role !== undefined) changes.role = update.role;
    if (update.disabled !== undefined) changes.disabled = update.disabled;
    if (update.password !== undefined) {
      assertPasswordPolicy(update.password);
      changes.passwordHash = await hashPassword(update.password);
    }
    const updated = await this.users.update(accountId, userId, changes);
    if (!updated) throw new AppError('NOT_FOUND', `no user ${userId}`);
    const rightsChanged = (update.disabled === true && !current.disabled) || (update.role !== undefined && update.role !== current.role);
    if (rightsChanged || update.password !== undefined) await this.sessions.endAllOfUser(userId, this.now());
    else this.sessions.forgetUser?.(userId);
    return updated;
  }

  /**
   * A new session for the address and password; null when either is wrong or the user is
   * disabled (one answer for all three, in about the same time: nothing tells which).
   */
  async signIn(email: string, password: string, environment: Environment): Promise<SignedIn | null> {
    const user = await this.users.findByEmail(normalisedEmail(email));
    if (!user) return verifyAgainstNothing(password).then(() => null);
    if (!(await verifyPassword(password, user.passwordHash)) || user.disabled) return null;
    const token = generateSessionToken();
    const createdAt = this.now();
    const session: SessionRecord = {
      id: prefixedId('ses', 16),
      accountId: user.accountId,
      userId: user.id,
      environment,
      tokenHash: hashSessionToken(token),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + this.options.sessionTtlSeconds * 1000),
      endedAt: null,
    };
    await this.sessions.insert(session);
    return { token, session, user };
  }

  /** Ends the session at once (sign-out). */
  async signOut(sessionId: string): Promise<void> {
    await this.sessions.end(sessionId, this.now());
  }
}
