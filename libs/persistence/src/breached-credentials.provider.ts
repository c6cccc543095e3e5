import {
  type BreachedCredentialsRepository,
  RemoteBreachedCredentialsRepository,
  StoreBreachedCredentialsRepository,
  loadCredentialsKey,
  storeDirOf,
} from '@ringfence/credentials';
import type { DataSource } from 'typeorm';
import type { PersistenceOptions } from './persistence.options';
import { convertLegacyBreachedCredentials } from './repositories/breached-credentials-conversion';

/** A process that never checks credentials gets this: a call means the wiring is wrong. */
const NO_BREACHED_CREDENTIALS: BreachedCredentialsRepository = {
  passwordPrefixesOf: () => Promise.reject(new Error('this process does not serve the breached-credentials store')),
  insert: () => Promise.reject(new Error('this process does not serve the breached-credentials store')),
  reload: () => Promise.reject(new Error('this process does not serve the breached-credentials store')),
};

/**
 * The breached-credentials store for this process (PersistenceOptions.credentials). The local
 * store also takes over, once, the pairs of the old `breached_credentials` table.
 */
export async function openBreachedCredentials(options: PersistenceOptions, dataSource: DataSource): Promise<BreachedCredentialsRepository> {
  const credentials = options.credentials;
  if (!credentials) return NO_BREACHED_CREDENTIALS;
  if (credentials.mode === 'remote') return new RemoteBreachedCredentialsRepository(credentials.lookupUrl, credentials.internalKey);
  const key = loadCredentialsKey(options.dataDir, credentials.key);
  const repository = await StoreBreachedCredentialsRepository.open(storeDirOf(options.dataDir), key);
  await convertLegacyBreachedCredentials(dataSource, repository, options.logger);
  return repository;
}
