import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_REPOSITORY, ALLOWED_ORIGINS_SETTINGS, API_KEY_CACHE_TTL_MS, type AccountRepository } from '@ringfence/accounts';

/**
 * Every origin that some data set of some account allows (ADR-0015): what a CORS preflight is
 * answered for, since a preflight carries no key to say whose list applies. Read from the account
 * registry at most once per `API_KEY_CACHE_TTL_MS` (a preflight is unauthenticated: a flood of
 * them costs one read a second), and again at once after a settings change made through this
 * process (`forget`); another gateway's change shows within that second, as keys' do.
 */
@Injectable()
export class AllowedOriginsIndex {
  private held: { loadedAt: number; origins: Promise<ReadonlySet<string>> } | null = null;

  constructor(@Inject(ACCOUNT_REPOSITORY) private readonly accounts: AccountRepository) {}

  async allowedAnywhere(origin: string): Promise<boolean> {
    return (await this.origins()).has(origin);
  }

  /** The next question reads the registry again (a settings change through this process). */
  forget(): void {
    this.held = null;
  }

  private origins(): Promise<ReadonlySet<string>> {
    const now = Date.now();
    if (this.held === null || now - this.held.loadedAt >= API_KEY_CACHE_TTL_MS) {
      const origins = this.load();
      this.held = { loadedAt: now, origins };
      // A failed read is not kept: the next preflight tries again.
      origins.catch(() => {
        if (this.held?.origins === origins) this.held = null;
      });
    }
    return this.held.origins;
  }

  private async load(): Promise<ReadonlySet<string>> {
    const settingNames = Object.values(ALLOWED_ORIGINS_SETTINGS);
    const accounts = await this.accounts.list();
    return new Set(accounts.flatMap((account) => settingNames.flatMap((name) => account.settings[name] ?? [])));
  }
}
