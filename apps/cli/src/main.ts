import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { AdminApiError, AdminClient } from './admin-client';

const program = new Command()
  .name('ringfence')
  .description('Manage Ringfence accounts and API keys through the admin API')
  .addOption(new Option('--url <url>', 'the gateway').env('RINGFENCE_URL').default('https://localhost:8443'))
  .addOption(new Option('--admin-key <token>', 'the admin token (ADMIN_API_KEY)').env('ADMIN_API_KEY'))
  .addOption(new Option('--ca <file>', 'a CA certificate to trust (default: DATA_DIR/tls/cert.pem when present)'))
  .option('--insecure', 'do not verify the TLS certificate (development only)', false);

function client(): AdminClient {
  const options = program.opts<{ url: string; adminKey?: string; ca?: string; insecure: boolean }>();
  const adminKey = options.adminKey ?? program.error('the admin token is required: set ADMIN_API_KEY or pass --admin-key');
  const embeddedCert = join(process.env.DATA_DIR ?? './data', 'tls', 'cert.pem');
  const caFile = options.ca ?? (existsSync(embeddedCert) ? embeddedCert : undefined);
  return new AdminClient({ baseUrl: options.url, adminKey, caFile, insecure: options.insecure });
}

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

const accounts = program.command('accounts').description('accounts');
accounts
  .command('create <name>')
  .description('create an account and print its four keys (shown only this once)')
  .option('--industry <industry>', 'the account industry')
  .action(async (name: string, options: { industry?: string }) => print(await client().createAccount(name, options.industry)));
accounts
  .command('list')
  .description('list accounts and their keys (never the plaintext keys)')
  .action(async () => print(await client().listAccounts()));

const keys = program.command('keys').description('API keys');
keys
  .command('create <accountId>')
  .description('issue a key and print it (shown only this once)')
  .addOption(new Option('--kind <kind>', 'key kind').choices(['secret', 'publishable']).default('secret'))
  .addOption(new Option('--env <env>', 'data set').choices(['test', 'live']).default('test'))
  .action(async (accountId: string, options: { kind: string; env: string }) =>
    print(await client().issueKey(accountId, options.kind, options.env)),
  );
keys
  .command('revoke <keyId>')
  .description('revoke a key; it stops working on the next request')
  .action(async (keyId: string) => {
    await client().revokeKey(keyId);
    print({ revoked: keyId });
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  const detail = error instanceof AdminApiError ? `${error.status} ${error.message}${error.traceId ? ` (traceId ${error.traceId})` : ''}` : String(error instanceof Error ? error.message : error);
  process.stderr.write(`ringfence: ${detail}\n`);
  process.exit(1);
});
