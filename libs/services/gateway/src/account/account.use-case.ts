import { Inject, Injectable } from '@nestjs/common';
import {
  ACCOUNT_REPOSITORY,
  API_KEY_REPOSITORY,
  type Account,
  AccountAdministration,
  type AccountRepository,
  type ApiKeyRepository,
  type Principal,
  type SelfServiceSettingsChange,
  ownAccountSettings,
} from '@ringfence/accounts';
import type { CallbackDestinations } from '@ringfence/callbacks';
import { AppError } from '@ringfence/platform';
import { RateLimits } from '../rate-limit/rate-limits.service';
import type { OwnAccountResponseDto } from './account.dto';
import { CALLBACK_DESTINATIONS } from './callback-destinations.provider';
import { AllowedOriginsIndex } from '../client/allowed-origins-index';

/**
 * `GET /v2/account` and `PATCH /v2/account/settings`: the key's own account, read and changed
 * through the same `AccountAdministration` as the admin API (one place for the settings' checks,
 * their write and the key cache's invalidation). Counted against the account's rate limit like
 * every route; over it nothing is read or changed.
 */
@Injectable()
export class AccountUseCase {
  private readonly administration: AccountAdministration;

  constructor(
    @Inject(ACCOUNT_REPOSITORY) private readonly accounts: AccountRepository,
    @Inject(API_KEY_REPOSITORY) keys: ApiKeyRepository,
    private readonly limits: RateLimits,
    @Inject(CALLBACK_DESTINATIONS) destinations: CallbackDestinations,
    private readonly origins: AllowedOriginsIndex,
  ) {
    this.administration = new AccountAdministration(accounts, keys, { checkCallbackUrl: (url) => destinations.urlProblem(url) });
  }

  async read(principal: Principal): Promise<OwnAccountResponseDto> {
    await this.limits.refuseWhenAccountLimited(principal);
    // The account repository, as every reader of the settings does (scoring reads the thresholds
    // there): this process's own changes show at once, other processes' within its cache's second.
    const account = await this.accounts.findById(principal.account.id);
    // The key authenticated, so its account existed a moment ago; accounts are never deleted.
    if (!account) throw new AppError('INTERNAL', `the account ${principal.account.id} of key ${principal.keyId} is gone`);
    return this.answer(principal, account);
  }

  async updateSettings(principal: Principal, changes: SelfServiceSettingsChange): Promise<OwnAccountResponseDto> {
    // Settings are the account's, for both data sets: a sandbox key (in test setups, CI, laptops)
    // must not be able to move live traffic's thresholds or redirect its label callbacks.
    if (principal.environment !== 'live') {
      throw new AppError('FORBIDDEN', 'account settings apply to live traffic too: change them with a live secret key (sk_live_…), or through the admin API');
    }
    await this.limits.refuseWhenAccountLimited(principal);
    const account = await this.administration.updateOwnSettings(principal.account.id, changes);
    // A preflight answered after this sees the account's allowed origins as now set.
    this.origins.forget();
    return this.answer(principal, account);
  }

  private async answer(principal: Principal, account: Account): Promise<OwnAccountResponseDto> {
    const keys = await this.administration.listKeys(account.id);
    return {
      status: 200,
      timestamp: Date.now(),
      data: {
        accountId: account.id,
        name: account.name,
        industry: account.industry,
        createdAt: account.createdAt.toISOString(),
        environment: principal.environment,
        settings: ownAccountSettings(account.settings),
        keys: keys.map((key) => ({
          keyId: key.id,
          prefix: key.displayPrefix,
          kind: key.kind,
          environment: key.environment,
          createdAt: key.createdAt.toISOString(),
          revokedAt: key.revokedAt?.toISOString() ?? null,
          current: key.id === principal.keyId,
        })),
      },
    };
  }
}
