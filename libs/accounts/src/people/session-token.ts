import { createHash, randomBytes } from 'node:crypto';

/** A console session's token: `rfs_` and 32 random bytes (256 bits) in base64url. */
const TOKEN_PATTERN = /^rfs_[A-Za-z0-9_-]{43}$/;

export function generateSessionToken(): string {
  return `rfs_${randomBytes(32).toString('base64url')}`;
}

export function isSessionToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** Stored only as this hash; a fast hash is right for a long random token, as for API keys. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
