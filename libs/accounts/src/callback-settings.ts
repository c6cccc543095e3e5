import type { AccountSettings } from './account';

export const MIN_CALLBACK_SECRET_LENGTH = 16;
export const MAX_CALLBACK_SECRET_LENGTH = 256;
export const MAX_CALLBACK_URL_LENGTH = 2048;

/** Plain http is allowed only to the machine itself: for a local receiver in tests and development. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

export const CALLBACK_URL_RULE = 'must be an https URL (http only for localhost or 127.0.0.1), without credentials';

/** Why `url` cannot be a callback URL, or null when it can. */
export function callbackUrlProblem(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > MAX_CALLBACK_URL_LENGTH) return CALLBACK_URL_RULE;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return CALLBACK_URL_RULE;
  }
  // Credentials in the URL would be shown by every answer that shows the URL.
  if (parsed.username !== '' || parsed.password !== '') return CALLBACK_URL_RULE;
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname)) return null;
  return CALLBACK_URL_RULE;
}

/**
 * The settings once `changes` are applied to `current` break a rule that spans two settings:
 * a callback URL needs a secret to sign with (nothing is ever sent unsigned). Null when fine.
 */
export function callbackSettingsProblem(current: AccountSettings, changes: AccountSettings): string | null {
  const url = changes.callbackUrl !== undefined ? changes.callbackUrl : current.callbackUrl;
  const secret = changes.callbackSecret !== undefined ? changes.callbackSecret : current.callbackSecret;
  if (url && !secret) return 'callbackSecret: is required while callbackUrl is set (send both, or clear callbackUrl first)';
  return null;
}

/**
 * The settings as an API may show them: the callback secret replaced by whether one is set.
 * Like every setting, `callbackSecretSet` is shown once the secret was ever set (or cleared).
 */
export type PublicAccountSettings = Omit<AccountSettings, 'callbackSecret'> & { callbackSecretSet?: boolean };

export function publicAccountSettings(settings: AccountSettings): PublicAccountSettings {
  const { callbackSecret, ...shown } = settings;
  if (callbackSecret === undefined) return shown;
  return { ...shown, callbackSecretSet: typeof callbackSecret === 'string' && callbackSecret.length > 0 };
}
