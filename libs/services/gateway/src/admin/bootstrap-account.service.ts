import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  ACCOUNT_REPOSITORY,
  API_KEY_REPOSITORY,
  type Account,
  AccountAdministration,
  type AccountRepository,
  type ApiKeyRepository,
  DEFAULT_ACCOUNT_NAME,
  generateApiKey,
} from '@ringfence/accounts';
import { type Logger, type RingfenceConfig, prefixedId } from '@ringfence/platform';
import { RINGFENCE_CONFIG, ROOT_LOGGER } from '@ringfence/service-runtime';

/**
 * ADR-0002: the first start creates the `default` account, in the embedded and the distributed
 * mode alike. Its sandbox secret key is BOOTSTRAP_API_KEY when set; otherwise one is generated,
 * printed once and written to DATA_DIR/bootstrap-key (mode 0600) by the one gateway that
 * created the account. Later starts, and other replicas, change nothing.
 */
@Injectable()
export class BootstrapAccountService implements OnApplicationBootstrap {
  constructor(
    @Inject(ACCOUNT_REPOSITORY) private readonly accounts: AccountRepository,
    @Inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepository,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const administration = new AccountAdministration(this.accounts, this.keys);
    if (this.config.bootstrapApiKey) {
      const { account, created, revoked } = await administration.ensureBootstrapAccount(this.config.bootstrapApiKey);
      if (created) this.logger.info({ accountId: account.id }, 'registered BOOTSTRAP_API_KEY on the default account');
      if (revoked) {
        this.logger.warn(
          { accountId: account.id },
          'BOOTSTRAP_API_KEY was revoked through the admin API and stays revoked (requests with it get 401); unset it, or set a new sandbox key to register that one',
        );
      }
      return;
    }
    if (await this.accounts.findByName(DEFAULT_ACCOUNT_NAME)) return;
    const key = generateApiKey('secret', 'test');
    const account = await this.createDefaultAccount(administration, key);
    if (account === null) return;
    const keyFile = join(this.config.dataDir, 'bootstrap-key');
    await mkdir(this.config.dataDir, { recursive: true });
    await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
    // The one time this key is shown; it is deliberately not a log field (logs are redacted).
    process.stdout.write(`\nRingfence: created account "default" (${account.id}).\nSandbox secret key (shown once, also in ${keyFile}):\n\n  ${key}\n\n`);
  }

  /**
   * Creates the `default` account with `key`, or null when another gateway replica sharing the
   * database created it meanwhile: the account name is unique (`uq_accounts_name`), so of
   * replicas starting together exactly one inserts it and issues (and shows) its key; the
   * others find it and change nothing.
   */
  private async createDefaultAccount(administration: AccountAdministration, key: string): Promise<Account | null> {
    const account: Account = { id: prefixedId('acc', 16), name: DEFAULT_ACCOUNT_NAME, industry: null, settings: {}, createdAt: new Date() };
    try {
      await this.accounts.insert(account);
    } catch (error) {
      if (await this.accounts.findByName(DEFAULT_ACCOUNT_NAME)) return null;
      throw error;
    }
    // Only the replica that inserted the account issues its key.
    return (await administration.ensureBootstrapAccount(key)).account;
  }
}
