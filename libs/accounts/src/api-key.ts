import { createHash } from 'node:crypto';
import type { Environment } from '@ringfence/contracts';
import { randomBase62 } from '@ringfence/platform';
import type { KeyKind } from './account';

export interface ParsedApiKey {
  kind: KeyKind;
  environment: Environment;
}

// Specification §5: secret keys start sk_ or secret_key_, publishable pk_ or publishable_key_;
// the environment is told by _test_ or _live_.
const KEY_PATTERN = /^(sk|secret_key|pk|publishable_key)_(test|live)_[A-Za-z0-9_-]{16,200}$/;

/** Reads kind and environment from a key's prefix; null for anything malformed. */
export function parseApiKey(key: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, prefix, environment] = match;
  return {
    kind: prefix === 'sk' || prefix === 'secret_key' ? 'secret' : 'publishable',
    environment: environment as Environment,
  };
}

/** A new key: 32 base62 characters (~190 bits) after the kind and environment prefix. */
export function generateApiKey(kind: KeyKind, environment: Environment): string {
  return `${kind === 'secret' ? 'sk' : 'pk'}_${environment}_${randomBase62(32)}`;
}

/**
 * Keys are stored only as this hash. A fast hash is right here: the keys are long and random,
 * so there is nothing to brute-force, and the hash is computed on every request.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Enough of the key to recognise it in a list, never enough to use it. */
export function displayPrefixOf(key: string): string {
  const parsed = /^((?:sk|secret_key|pk|publishable_key)_(?:test|live)_)(.*)$/.exec(key);
  return parsed ? `${parsed[1]}${parsed[2].slice(0, 4)}` : key.slice(0, 8);
}
