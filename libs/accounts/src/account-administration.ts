import type { Environment } from '@ringfence/contracts';
import { AppError, prefixedId } from '@ringfence/platform';
import type { Account, AccountRepository, AccountSettings, ApiKeyRecord, ApiKeyRepository, KeyKind } from './account';
import { displayPrefixOf, generateApiKey, hashApiKey, parseApiKey } from './api-key';
import { callbackSettingsProblem, callbackUrlsSetIn, changesCallbackSettings } from './callback-settings';
import { OPERATOR_ONLY_SETTING_RULE, type SelfServiceSettingsChange, operatorOnlySettingsIn, selfServiceSettingsChange } from './self-service-settings';

export interface IssuedKey {
  keyId: string;
  kind: KeyKind;
  env: Environment;
  /** The plaintext key: returned once, at creation, and never stored. */
  key: string;
}

export interface CreatedAccount {
  account: Account;
  keys: { secretTest: IssuedKey; secretLive: IssuedKey; publishableTest: IssuedKey; publishableLive: IssuedKey };
}

export const DEFAULT_ACCOUNT_NAME = 'default';

/** Why a callback URL may not be saved (where its host resolves), or null: `CallbackDestinations.urlProblem`. */
export type CallbackUrlCheck = (url: string) => Promise<string | null>;

export interface AccountAdministrationOptions {
  /**
   * Where a callback URL may reach, checked before it is saved (ADR-0016). Without one, no
   * callback URL can be saved (fail closed): for processes that only create accounts and keys.
   */
  checkCallbackUrl?: CallbackUrlCheck;
  now?: () => Date;
}

const refuseEveryCallbackUrl: CallbackUrlCheck = () => Promise.reject(new AppError('INTERNAL', 'this process has no check of callback URLs, so it saves none'));

/** The admin use cases: accounts and their keys (ADR-0002). */
export class AccountAdministration {
  private readonly now: () => Date;
  private readonly checkCallbackUrl: CallbackUrlCheck;

  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeyRepository,
    options: AccountAdministrationOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.checkCallbackUrl = options.checkCallbackUrl ?? refuseEveryCallbackUrl;
  }

  async createAccount(name: string, industry: string | null): Promise<CreatedAccount> {
    if (await this.accounts.findByName(name)) {
      throw new AppError('CONFLICT', `name: an account named ${JSON.stringify(name)} exists`);
    }
    const account: Account = { id: prefixedId('acc', 16), name, industry, settings: {}, createdAt: this.now() };
    await this.accounts.insert(account);
    return {
      account,
      keys: {
        secretTest: await this.issueKey(account.id, 'secret', 'test'),
        secretLive: await this.issueKey(account.id, 'secret', 'live'),
        publishableTest: await this.issueKey(account.id, 'publishable', 'test'),
        publishableLive: await this.issueKey(account.id, 'publishable', 'live'),
      },
    };
  }

  listAccounts(): Promise<Account[]> {
    return this.accounts.list();
  }

  async issueKey(accountId: string, kind: KeyKind, env: Environment, plaintext = generateApiKey(kind, env)): Promise<IssuedKey> {
    if (!(await this.accounts.findById(accountId))) {
      throw new AppError('NOT_FOUND', `no account ${accountId}`);
    }
    const record: ApiKeyRecord = {
      id: prefixedId('key', 16),
      accountId,
      kind,
      environment: env,
      keyHash: hashApiKey(plaintext),
      displayPrefix: displayPrefixOf(plaintext),
      createdAt: this.now(),
      revokedAt: null,
    };
    await this.keys.insert(record);
    return { keyId: record.id, kind, env, key: plaintext };
  }

  /**
   * Sets the given settings and leaves the others unchanged (a setting sent as null is stored
   * as null: unset). A callback URL needs a callback secret of its data set, sent with it or
   * stored before (VALIDATION_FAILED naming `callbackSecret` or `testCallbackSecret`), and must
   * reach only addresses callbacks may reach (VALIDATION_FAILED naming the URL's setting: its
   * host resolved now, and again at each attempt). Authentication reads the settings
   * with the key, so the change applies from this process's next request on (and within the
   * key cache's second in other processes).
   */
  async updateSettings(accountId: string, settings: AccountSettings): Promise<Account> {
    const urls = callbackUrlsSetIn(settings);
    if (urls.length > 0) {
      const problems = await Promise.all(urls.map(async ({ setting, url }) => ({ setting, problem: await this.checkCallbackUrl(url) })));
      const refused = problems.filter(({ problem }) => problem !== null);
      if (refused.length > 0) throw new AppError('VALIDATION_FAILED', refused.map(({ setting, problem }) => `${setting}: ${problem}`).join('; '));
    }
    if (changesCallbackSettings(settings)) {
      // Checked against the stored settings, then written: two operators changing the callback
      // settings of one account at the same moment could still leave a URL without a secret,
      // and an attempt then records that nothing was sent (nothing is ever sent unsigned).
      const current = await this.accounts.findById(accountId);
      if (!current) throw new AppError('NOT_FOUND', `no account ${accountId}`);
      const problem = callbackSettingsProblem(current.settings, settings);
      if (problem !== null) throw new AppError('VALIDATION_FAILED', problem);
    }
    const updated = await this.accounts.updateSettings(accountId, settings);
    if (!updated) throw new AppError('NOT_FOUND', `no account ${accountId}`);
    this.keys.forgetAccount?.(accountId);
    return updated;
  }

  /**
   * An account changing its own settings (`PATCH /v2/account/settings`): the same checks and
   * effect as `updateSettings`, for the self-service settings only. An operator-only setting is
   * refused (VALIDATION_FAILED naming each one) rather than dropped: the caller meant to change it.
   */
  async updateOwnSettings(accountId: string, changes: SelfServiceSettingsChange): Promise<Account> {
    const refused = operatorOnlySettingsIn(changes);
    if (refused.length > 0) throw new AppError('VALIDATION_FAILED', refused.map((setting) => `${setting}: ${OPERATOR_ONLY_SETTING_RULE}`).join('; '));
    return this.updateSettings(accountId, selfServiceSettingsChange(changes));
  }

  listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.keys.listForAccount(accountId);
  }

  async revokeKey(keyId: string): Promise<void> {
    if (!(await this.keys.revoke(keyId, this.now()))) {
      throw new AppError('NOT_FOUND', `no active key ${keyId}`);
    }
  }

  /**
   * First start of the embedded mode: make sure the `default` account exists and that
   * `bootstrapKey` (a sandbox secret key) belongs to it. Idempotent across restarts.
   * Returns the account, whether the key was newly registered, and whether an operator has
   * revoked it since: a revoked key stays revoked (the operator meant it), and the start goes on.
   */
  async ensureBootstrapAccount(bootstrapKey: string): Promise<{ account: Account; created: boolean; revoked: boolean }> {
    const parsed = parseApiKey(bootstrapKey);
    if (!parsed || parsed.kind !== 'secret' || parsed.environment !== 'test') {
      throw new AppError('VALIDATION_FAILED', 'the bootstrap key must be a sandbox secret key (sk_test_…)');
    }
    let account = await this.accounts.findByName(DEFAULT_ACCOUNT_NAME);
    if (!account) {
      account = { id: prefixedId('acc', 16), name: DEFAULT_ACCOUNT_NAME, industry: null, settings: {}, createdAt: this.now() };
      await this.accounts.insert(account);
    }
    // Revoked keys count: issuing the hash again would break the start (the hash is unique) or,
    // worse, bring back a key the operator revoked.
    const existing = await this.keys.findByHash(hashApiKey(bootstrapKey));
    if (existing) {
      if (existing.accountId !== account.id) {
        throw new AppError('CONFLICT', 'the bootstrap key belongs to another account');
      }
      return { account, created: false, revoked: existing.revokedAt !== null };
    }
    await this.issueKey(account.id, 'secret', 'test', bootstrapKey);
    return { account, created: true, revoked: false };
  }
}
