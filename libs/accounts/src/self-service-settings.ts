import type { AccountSettings, ScoreThresholds } from './account';
import { isSet, publicAccountSettings, type PublicAccountSettings } from './callback-settings';

/**
 * Who may change each setting: the account itself, with one of its secret keys
 * (`PATCH /v2/account/settings`), or only the operator (`PATCH /admin/accounts/:id/settings`,
 * which may change every setting). The account tunes how its own answers are decided (its
 * thresholds, the time zone its hours are read in) and where its label changes go; what the
 * operator grants (the POTENTIALLY_ reviews, the voucher and lookup policies, the rate-limited
 * answer, the 3-D Secure policy) stays the operator's.
 * `satisfies` a record of every key: a new setting does not compile until it is given an owner.
 */
export const SETTING_CHANGED_BY = {
  voucherAbuseEnabled: 'operator',
  potentialLabelsEnabled: 'operator',
  defaultAction: 'operator',
  voucherThresholdComparison: 'operator',
  voucherTypes: 'operator',
  lookupConsortiumMinAccounts: 'operator',
  lookupLimitIndustry: 'operator',
  callbackUrl: 'account',
  callbackSecret: 'account',
  testCallbackUrl: 'account',
  testCallbackSecret: 'account',
  scoreThresholds: 'account',
  transactionOptimisation: 'operator',
  timeZone: 'account',
  allowedOrigins: 'account',
  testAllowedOrigins: 'account',
} as const satisfies Record<keyof Required<AccountSettings>, 'account' | 'operator'>;

type ChangedBy = typeof SETTING_CHANGED_BY;
type SettingsChangedBy<Who> = { [K in keyof ChangedBy]: ChangedBy[K] extends Who ? K : never }[keyof ChangedBy];

/** The settings an account may change itself. */
export type SelfServiceSetting = SettingsChangedBy<'account'>;
/** The settings only the operator may change. */
export type OperatorOnlySetting = SettingsChangedBy<'operator'>;

const settingsChangedBy = <Who extends 'account' | 'operator'>(who: Who) =>
  (Object.keys(SETTING_CHANGED_BY) as Array<keyof ChangedBy>).filter((setting) => SETTING_CHANGED_BY[setting] === who) as Array<SettingsChangedBy<Who>>;

export const SELF_SERVICE_SETTINGS: readonly SelfServiceSetting[] = settingsChangedBy('account');
export const OPERATOR_ONLY_SETTINGS: readonly OperatorOnlySetting[] = settingsChangedBy('operator');

/** A change an account makes to its own settings. */
export type SelfServiceSettingsChange = Pick<AccountSettings, SelfServiceSetting>;

/** The rule an operator-only setting breaks when an account key sends it. */
export const OPERATOR_ONLY_SETTING_RULE = 'is set by the operator only (PATCH /admin/accounts/:accountId/settings), not with an account key';

/** The operator-only settings that `changes` names (sent, even as null), in the order of `OPERATOR_ONLY_SETTINGS`. */
export function operatorOnlySettingsIn(changes: object): OperatorOnlySetting[] {
  return OPERATOR_ONLY_SETTINGS.filter((setting) => Object.prototype.hasOwnProperty.call(changes, setting) && (changes as Record<string, unknown>)[setting] !== undefined);
}

/** The self-service settings `changes` sends, and nothing else (absent ones stay absent: unchanged). */
export function selfServiceSettingsChange(changes: SelfServiceSettingsChange): SelfServiceSettingsChange {
  const picked: Record<string, unknown> = {};
  for (const setting of SELF_SERVICE_SETTINGS) if (changes[setting] !== undefined) picked[setting] = changes[setting];
  return picked as SelfServiceSettingsChange;
}

/**
 * The settings as the account sees them (`GET /v2/account`): those stored, never the callback
 * secrets, plus, always present, what a console needs to show without knowing which were ever
 * set: the self-service settings (null when unset: no callbacks, scoring's default thresholds,
 * hours read in UTC), whether each data set's callback secret is set, and whether the
 * POTENTIALLY_ reviews are allowed (off unless the operator switched them on, as the label rules
 * read it).
 */
export type OwnAccountSettings = PublicAccountSettings & {
  scoreThresholds: ScoreThresholds | null;
  callbackUrl: string | null;
  callbackSecretSet: boolean;
  testCallbackUrl: string | null;
  testCallbackSecretSet: boolean;
  potentialLabelsEnabled: boolean;
  timeZone: string | null;
  allowedOrigins: string[];
  testAllowedOrigins: string[];
};

export function ownAccountSettings(settings: AccountSettings): OwnAccountSettings {
  return {
    ...publicAccountSettings(settings),
    scoreThresholds: settings.scoreThresholds ?? null,
    callbackUrl: settings.callbackUrl ?? null,
    callbackSecretSet: isSet(settings.callbackSecret),
    testCallbackUrl: settings.testCallbackUrl ?? null,
    testCallbackSecretSet: isSet(settings.testCallbackSecret),
    potentialLabelsEnabled: settings.potentialLabelsEnabled === true,
    timeZone: settings.timeZone ?? null,
    allowedOrigins: settings.allowedOrigins ?? [],
    testAllowedOrigins: settings.testAllowedOrigins ?? [],
  };
}
