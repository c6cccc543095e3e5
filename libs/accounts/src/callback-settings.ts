import type { Environment } from '@ringfence/contracts';
import type { AccountSettings } from './account';

export const MIN_CALLBACK_SECRET_LENGTH = 16;
export const MAX_CALLBACK_SECRET_LENGTH = 256;
export const MAX_CALLBACK_URL_LENGTH = 2048;

export const CALLBACK_URL_RULE = 'must be an https URL (plain http only to a network the operator allows), without credentials';

/**
 * The settings that hold each data set's review callbacks (ADR-0016: set per data set, so a
 * sandbox label never reaches the live receiver). The live data set keeps the names callbacks
 * had when they were one per account: a URL set then stays where live labels go, and the sandbox
 * has none until `testCallbackUrl` is set.
 */
export const CALLBACK_SETTINGS = {
  live: { url: 'callbackUrl', secret: 'callbackSecret' },
  test: { url: 'testCallbackUrl', secret: 'testCallbackSecret' },
} as const satisfies Record<Environment, { url: keyof AccountSettings; secret: keyof AccountSettings }>;

export type CallbackUrlSetting = (typeof CALLBACK_SETTINGS)[Environment]['url'];
export type CallbackSecretSetting = (typeof CALLBACK_SETTINGS)[Environment]['secret'];
const ENVIRONMENTS = Object.keys(CALLBACK_SETTINGS) as Environment[];

/** A data set's callback URL and secret (null: unset). */
export function callbackTargetOf(settings: AccountSettings, environment: Environment): { callbackUrl: string | null; callbackSecret: string | null } {
  const names = CALLBACK_SETTINGS[environment];
  return { callbackUrl: settings[names.url] ?? null, callbackSecret: settings[names.secret] ?? null };
}

/** The callback URLs that `changes` sets (not those it clears), each with its setting's name. */
export function callbackUrlsSetIn(changes: AccountSettings): Array<{ setting: CallbackUrlSetting; url: string }> {
  return ENVIRONMENTS.flatMap((environment) => {
    const setting = CALLBACK_SETTINGS[environment].url;
    const url = changes[setting];
    return typeof url === 'string' ? [{ setting, url }] : [];
  });
}

/** Whether `changes` sends any data set's callback URL or secret (even as null). */
export function changesCallbackSettings(changes: AccountSettings): boolean {
  return ENVIRONMENTS.some((environment) => changes[CALLBACK_SETTINGS[environment].url] !== undefined || changes[CALLBACK_SETTINGS[environment].secret] !== undefined);
}

/**
 * Why `url` cannot be a callback URL by its form, or null when it can. Where it may reach is
 * judged apart, by resolving it (`CallbackDestinations.urlProblem` in @ringfence/callbacks).
 */
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
  if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return null;
  return CALLBACK_URL_RULE;
}

/**
 * The settings once `changes` are applied to `current` break a rule that spans two settings:
 * a data set's callback URL needs a secret to sign with (nothing is ever sent unsigned). Null
 * when fine.
 */
export function callbackSettingsProblem(current: AccountSettings, changes: AccountSettings): string | null {
  const problems = ENVIRONMENTS.flatMap((environment) => {
    const names = CALLBACK_SETTINGS[environment];
    const url = changes[names.url] !== undefined ? changes[names.url] : current[names.url];
    const secret = changes[names.secret] !== undefined ? changes[names.secret] : current[names.secret];
    return url && !secret ? [`${names.secret}: is required while ${names.url} is set (send both, or clear ${names.url} first)`] : [];
  });
  return problems.length === 0 ? null : problems.join('; ');
}

/**
 * The settings as an API may show them: each callback secret replaced by whether one is set.
 * Like every setting, `callbackSecretSet` and `testCallbackSecretSet` are shown once the secret
 * was ever set (or cleared).
 */
export type PublicAccountSettings = Omit<AccountSettings, CallbackSecretSetting> & { callbackSecretSet?: boolean; testCallbackSecretSet?: boolean };

export function publicAccountSettings(settings: AccountSettings): PublicAccountSettings {
  const { callbackSecret, testCallbackSecret, ...shown } = settings;
  return {
    ...shown,
    ...(callbackSecret !== undefined && { callbackSecretSet: isSet(callbackSecret) }),
    ...(testCallbackSecret !== undefined && { testCallbackSecretSet: isSet(testCallbackSecret) }),
  };
}

export const isSet = (secret: string | null | undefined): boolean => typeof secret === 'string' && secret.length > 0;
