import type { BreachedCredentialsRepository } from './breached-credentials.repository';
import type { CommonPasswords } from './common-passwords';
import { normalisePasswordHash } from './password-hash';
import { PASSWORD_PREFIX_HEX_LENGTH } from './store/record-format';
import { normaliseUsername } from './username';

/**
 * The answer of the check (specification §4.16). No field is named like a hash (ADR-0009):
 * the answer says nothing a client could mistake for the value it sent.
 */
export interface CredentialStatus {
  usernameBreached: boolean;
  passwordBreached: boolean;
  numBreachedPasswords: number;
}

/**
 * ADR-0006: `usernameBreached` when the username is in the breached pairs;
 * `numBreachedPasswords` the distinct passwords it has there; `passwordBreached` when the given
 * hash is among them or is one of the common passwords. The store keeps the first 8 bytes of
 * each breached hash (docs/credentials.md says why that is exact enough), so the comparison is on
 * that prefix.
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
    const breachedPrefixes = await this.repository.passwordPrefixesOf(normaliseUsername(username));
    return {
      usernameBreached: breachedPrefixes.length > 0,
      passwordBreached: breachedPrefixes.includes(hash.slice(0, PASSWORD_PREFIX_HEX_LENGTH)) || this.commonPasswords.has(hash),
      numBreachedPasswords: breachedPrefixes.length,
    };
  }
}
