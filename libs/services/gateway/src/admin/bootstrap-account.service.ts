import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  ACCOUNT_REPOSITORY,
  API_KEY_REPOSITORY,
  AccountAdministration,
  type AccountRepository,
  type ApiKeyRepository,
  DEFAULT_ACCOUNT_NAME,
  generateApiKey,
} from '@ringfence/accounts';
import type { Logger, RingfenceConfig } from '@ringfence/platform';
import { RINGFENCE_CONFIG, ROOT_LOGGER } from '@ringfence/service-runtime';

/**
 * ADR-0002, the embedded default: the first start creates the `default` account. Its
 * sandbox secret key is BOOTSTRAP_API_KEY when set; otherwise one is generated, printed once
 * and written to DATA_DIR/bootstrap-key (mode 0600). Later starts change nothing.
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
    // Only the embedded mode invents a key: a distributed deployment is set up by its operator.
    if (this.config.databaseUrl || (await this.accounts.findByName(DEFAULT_ACCOUNT_NAME))) return;
    const key = generateApiKey('secret', 'test');
    const { account } = await administration.ensureBootstrapAccount(key);
    const keyFile = join(this.config.dataDir, 'bootstrap-key');
    await mkdir(this.config.dataDir, { recursive: true });
    await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
    // The one time this key is shown; it is deliberately not a log field (logs are redacted).
    process.stdout.write(`\nRingfence: created account "default" (${account.id}).\nSandbox secret key (shown once, also in ${keyFile}):\n\n  ${key}\n\n`);
  }
}
