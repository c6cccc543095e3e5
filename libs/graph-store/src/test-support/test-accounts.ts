import { randomUUID } from 'node:crypto';
import type { AccountRepository } from '@ringfence/accounts';

/** A new account row, for the foreign keys of the graph tables; answers its id. */
export async function insertTestAccount(accounts: AccountRepository): Promise<string> {
  const id = `acc_${randomUUID().replaceAll('-', '')}`;
  await accounts.insert({ id, name: `graph store test ${id}`, industry: null, settings: {}, createdAt: new Date() });
  return id;
}
