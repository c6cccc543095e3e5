import { dictionary } from '@zxcvbn-ts/language-common';
import { sha256Hex } from './password-hash';

/** ADR-0009: the common set holds at least the top 10,000 passwords of the list. */
export const MIN_COMMON_PASSWORDS = 10_000;

/**
 * The SHA-256 hashes of the most commonly used passwords (ADR-0006): a password whose hash
 * is here is breached whatever the username. Built once at start; membership is a Set lookup.
 */
export class CommonPasswords {
  private readonly hashes: ReadonlySet<string>;

  constructor(passwords: Iterable<string>) {
    const hashes = new Set<string>();
    for (const password of passwords) hashes.add(sha256Hex(password));
    this.hashes = hashes;
  }

  /** The ranked list of `@zxcvbn-ts/language-common` (about 49,000 passwords), all of it. */
  static fromZxcvbnList(): CommonPasswords {
    const passwords = dictionary['passwords-common'];
    if (passwords.length < MIN_COMMON_PASSWORDS) {
      throw new Error(`the common-password list has ${passwords.length} entries; at least ${MIN_COMMON_PASSWORDS} are needed`);
    }
    return new CommonPasswords(passwords);
  }

  get size(): number {
    return this.hashes.size;
  }

  /** `passwordHash`: lower-case hex SHA-256. */
  has(passwordHash: string): boolean {
    return this.hashes.has(passwordHash);
  }
}
