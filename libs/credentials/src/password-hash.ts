import { createHash } from 'node:crypto';

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** The SHA-256 of a password as lower-case hex: the only form a password is handled in. */
export function sha256Hex(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('hex');
}

export function isSha256Hex(text: string): boolean {
  return SHA256_HEX.test(text);
}

/** Hex digests compare case-insensitively; lower case is the stored form. */
export function normalisePasswordHash(passwordHash: string): string {
  return passwordHash.toLowerCase();
}
