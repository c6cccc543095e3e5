import type { BreachedCredentialsRepository } from './breached-credentials.repository';
import type { CommonPasswords } from './common-passwords';
import { normalisePasswordHash } from './password-hash';
import { normaliseUsername } from './username';

/**
 * The answer of the check (specification §4.16). No field is named like a hash (decisions §9):
 * the answer says nothing a client could mistake for the value it sent.
 */
export interface CredentialStatus {
  usernameBreached: boolean;
  passwordBreached: boolean;
  numBreachedPasswords: number;
}

/**
 * decisions §6: `usernameBreached` when the username is in the breached pairs;
 * `numBreachedPasswords` the distinct passwords it has there; `passwordBreached` when the given
 * hash is among them or is one of the common passwords.
 *
 * The given hash is compared here, in the caller's process, and then dropped: it is never
 * stored, never sent to the database, never part of a log line, trace or message.
 */
export class CredentialsCheck {
  constructor(
    private readonly repository: BreachedCredentialsRepository,
    private readonly commonPasswords: CommonPasswords,
  ) {}

  async check(username: string, passwordHash: string): Promise<CredentialStatus> {
    const hash = normalisePasswordHash(passwordHash);
    const breachedHashes = await this.repository.passwordHashesOf(normaliseUsername(username));
    return {
      usernameBreached: breachedHashes.length > 0,
      passwordBreached: breachedHashes.includes(hash) || this.commonPasswords.has(hash),
      numBreachedPasswords: breachedHashes.length,
    };
  }
}
