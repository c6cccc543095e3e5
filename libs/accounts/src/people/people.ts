import type { Environment } from '@ringfence/contracts';
import type { UserRole } from '../api-key-authenticator';

/**
 * A named person of an account (issue 37): signs in to the console with an e-mail address and
 * a password, and acts with a role. Only the password's hash is stored (`password-hashing.ts`).
 */
export interface UserRecord {
  id: string;
  accountId: string;
  /** Lower-cased; unique over the whole server (one address signs in to one account). */
  email: string;
  name: string;
  role: UserRole;
  passwordHash: string;
  disabled: boolean;
  createdAt: Date;
  /** `actorOf` the principal that made the user: the admin's e-mail or `key <keyId>`. */
  createdBy: string;
}

/** A console session: never the token itself, only its SHA-256 hash, like API keys. */
export interface SessionRecord {
  id: string;
  accountId: string;
  userId: string;
  environment: Environment;
  tokenHash: string;
  createdAt: Date;
  /** Absolute: the session ends then whatever the activity (`SESSION_TTL_SECONDS`). */
  expiresAt: Date;
  /** Set by sign-out, or when the user is disabled or changes role; an ended session stays ended. */
  endedAt: Date | null;
}

/** What a user may change after creation; each absent field is left as it is. */
export type UserChanges = Partial<Pick<UserRecord, 'name' | 'role' | 'passwordHash' | 'disabled'>>;

export interface UserRepository {
  /** False when the e-mail address is taken (by a user of any account). */
  insert(user: UserRecord): Promise<boolean>;
  /** The user with this (lower-cased) address, of any account; null when unknown. */
  findByEmail(email: string): Promise<UserRecord | null>;
  findById(accountId: string, userId: string): Promise<UserRecord | null>;
  /** Oldest first. */
  listForAccount(accountId: string): Promise<UserRecord[]>;
  /** The user as stored afterwards; null when the account has no such user. */
  update(accountId: string, userId: string, changes: UserChanges): Promise<UserRecord | null>;
}

/** A session found by its token, with its person, read in one lookup (the account is read from its own cache). */
/** The person a session authenticates, without the password hash: sessions are cached, the hash need not be. */
export type SessionUser = Omit<UserRecord, 'passwordHash'>;

export interface ActiveSession {
  session: SessionRecord;
  user: SessionUser;
}

export interface SessionRepository {
  insert(session: SessionRecord): Promise<void>;
  /**
   * The session with this token hash, unended, whose user is enabled; null otherwise. Expiry is
   * the caller's to check (a cached answer must still expire on time).
   */
  findActiveByHash(tokenHash: string): Promise<ActiveSession | null>;
  /** Ends the session; false when it had ended (or never was). */
  end(sessionId: string, at: Date): Promise<boolean>;
  /** Ends every unended session of the user; returns how many. */
  endAllOfUser(userId: string, at: Date): Promise<number>;
  /** A caching implementation drops what it holds of the user (their name changed). */
  forgetUser?(userId: string): void;
}

export const USER_REPOSITORY = Symbol('UserRepository');
export const SESSION_REPOSITORY = Symbol('SessionRepository');
