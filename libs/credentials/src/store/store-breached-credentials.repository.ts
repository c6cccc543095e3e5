import type { BreachedCredential, BreachedCredentialsRepository } from '../breached-credentials.repository';
import { CredentialsStore, type StoreStats } from './credentials-store';
import { importPairs } from './store-import';

/**
 * The breached-credentials port over the on-disk store, in the process that holds the store
 * (embedded: the one process; distributed: the lookup service). Writes from this process (the
 * admin route, the start-up conversion) run one at a time and swap the new generation in before
 * they answer, so the very next check sees them; the CLI's imports, from another process, are
 * picked up by `reload()` (the admin reload route) or, failing that, by watching CURRENT.
 */
export class StoreBreachedCredentialsRepository implements BreachedCredentialsRepository {
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: CredentialsStore,
    private readonly key: Buffer,
  ) {}

  static async open(storeDir: string, key: Buffer): Promise<StoreBreachedCredentialsRepository> {
    const store = await CredentialsStore.open(storeDir, key);
    store.watch();
    return new StoreBreachedCredentialsRepository(store, key);
  }

  get stats(): StoreStats {
    return this.store.stats;
  }

  passwordPrefixesOf(username: string): Promise<string[]> {
    return this.store.passwordPrefixesOf(username);
  }

  insert(credentials: readonly BreachedCredential[]): Promise<number> {
    const run = this.writing.then(async () => {
      if (credentials.length === 0) return 0;
      const result = await importPairs(this.store.storeDir, this.key, credentials);
      await this.store.reload();
      return result.newPairs;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  async reload(): Promise<StoreStats> {
    await this.store.reload();
    return this.store.stats;
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
