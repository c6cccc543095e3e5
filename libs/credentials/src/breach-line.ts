import type { BreachedCredential } from './breached-credentials.repository';
import { isSha256Hex, normalisePasswordHash, sha256Hex } from './password-hash';
import { normaliseUsername } from './username';

/** Matches `MAX_USERNAME_LENGTH` of the admin import contract; longer lines would fail a whole batch. */
export const MAX_IMPORT_USERNAME_LENGTH = 256;

export type BreachLineSkip = 'no-separator' | 'empty-username' | 'empty-password' | 'username-too-long';

export type ParsedBreachLine = { ok: true; credential: BreachedCredential } | { ok: false; skip: BreachLineSkip };

/**
 * One line of a breach corpus (ADR-0006): `username:password` or `username:<sha256 hex>`,
 * split at the first `:` (usernames rarely hold one; passwords may). A value of exactly 64 hex
 * characters is taken to be a hash already; anything else is a plaintext password and is hashed
 * here, so plaintext never leaves the process that reads the file.
 */
export function parseBreachLine(line: string): ParsedBreachLine {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  const separator = text.indexOf(':');
  if (separator < 0) return { ok: false, skip: 'no-separator' };
  const username = normaliseUsername(text.slice(0, separator));
  const password = text.slice(separator + 1);
  if (username === '') return { ok: false, skip: 'empty-username' };
  if (username.length > MAX_IMPORT_USERNAME_LENGTH) return { ok: false, skip: 'username-too-long' };
  if (password === '') return { ok: false, skip: 'empty-password' };
  const passwordHash = isSha256Hex(password) ? normalisePasswordHash(password) : sha256Hex(password);
  return { ok: true, credential: { username, passwordHash } };
}
