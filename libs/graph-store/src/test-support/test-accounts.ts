import { randomUUID } from 'node:crypto';
import type { AccountRepository } from '@ringfence/accounts';

/** A new account (the gateway's registry, in memory: the graph tables keep no key to it); answers its id. */
export async function insertTestAccount(accounts: AccountRepository): Promise<string> {
  const id = `acc_${randomUUID().replaceAll('-', '')}`;
  await accounts.insert({ id, name: `graph store test ${id}`, industry: null, settings: {}, createdAt: new Date() });
  return id;
}
