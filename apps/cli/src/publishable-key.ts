import { AdminClient } from './admin-client';
import type { ApiConnection } from './traffic-sender';

/**
 * A publishable key for the secret key's account and data set, issued through the admin API (the
 * operator issues keys, docs/api.md "Admin API"): `GET /v2/account` with the secret key says which
 * account and data set, `POST /admin/accounts/:id/keys {kind: publishable, env}` issues it.
 */
export async function issuePublishableKey(connection: ApiConnection, secretKey: string): Promise<string> {
  const { baseUrl, caFile, insecure, adminKey } = connection;
  if (!adminKey) throw new Error('client events need a publishable key: pass --publishable-key, or --admin-key to issue one');
  const account = (await new AdminClient({ baseUrl, caFile, insecure, adminKey: secretKey }).ownAccount()).data;
  const issued = (await new AdminClient({ baseUrl, caFile, insecure, adminKey }).issueKey(account.accountId, 'publishable', account.environment)) as { key: string };
  process.stderr.write(`ringfence: issued a publishable key for ${account.accountId} (${account.environment}) to send the client events with\n`);
  return issued.key;
}
