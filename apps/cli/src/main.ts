import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { AdminApiError, AdminClient } from './admin-client';
import { runCredentialsImport } from './credentials-import';
import { registerImportCommand } from './import-command';
import { registerModelCommand } from './model-command';
import { registerSimulateCommand } from './simulate-command';
import { registerUsersCommand } from './users-command';
import type { ApiConnection } from './traffic-sender';

const program = new Command()
  .name('ringfence')
  .description('Manage Ringfence accounts, API keys and breached credentials through the admin API')
  .addOption(new Option('--url <url>', 'the gateway').env('RINGFENCE_URL').default('https://localhost:8443'))
  .addOption(new Option('--admin-key <token>', 'the admin token (ADMIN_API_KEY)').env('ADMIN_API_KEY'))
  .addOption(new Option('--ca <file>', 'a CA certificate to trust (default: DATA_DIR/tls/cert.pem when present)'))
  .option('--insecure', 'do not verify the TLS certificate (development only)', false);

function client(): AdminClient {
  const options = program.opts<{ url: string; adminKey?: string; ca?: string; insecure: boolean }>();
  const adminKey = options.adminKey ?? program.error('the admin token is required: set ADMIN_API_KEY or pass --admin-key');
  return new AdminClient({ baseUrl: options.url, adminKey, caFile: caFileOf(options.ca), insecure: options.insecure });
}

/** The CA to trust: `--ca`, else the embedded mode's own certificate when there is one. */
function caFileOf(ca: string | undefined): string | undefined {
  const embeddedCert = join(process.env.DATA_DIR ?? './data', 'tls', 'cert.pem');
  return ca ?? (existsSync(embeddedCert) ? embeddedCert : undefined);
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

const onOff = (flag: string, description: string) => new Option(flag, description).choices(['on', 'off']);
accounts
  .command('settings <accountId>')
  .description("change an account's settings; the others stay as they are, and the change applies from the next request")
  .addOption(onOff('--potential-labels <on|off>', 'allow the POTENTIALLY_FRAUDSTER / POTENTIALLY_GENUINE customer labels'))
  .addOption(onOff('--voucher-abuse <on|off>', 'voucher-abuse recommendations'))
  .addOption(new Option('--default-action <action>', 'the action a rate-limited checkpoint answers').choices(['ALLOW', 'REVIEW', 'PREVENT']))
  // Checked by the server, the one place that knows the time-zone database it will read the hours with.
  .addOption(new Option('--time-zone <zone>', "the IANA time zone the account's checkpoints read the hour of day, night and weekend in (Europe/London, America/New_York, UTC)"))
  .action(async (accountId: string, options: { potentialLabels?: string; voucherAbuse?: string; defaultAction?: string; timeZone?: string }) => {
    const settings = {
      ...(options.potentialLabels === undefined ? {} : { potentialLabelsEnabled: options.potentialLabels === 'on' }),
      ...(options.voucherAbuse === undefined ? {} : { voucherAbuseEnabled: options.voucherAbuse === 'on' }),
      ...(options.defaultAction === undefined ? {} : { defaultAction: options.defaultAction }),
      ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    };
    if (Object.keys(settings).length === 0) {
      program.error('nothing to change: give --potential-labels, --voucher-abuse, --default-action or --time-zone');
    }
    print(await client().updateSettings(accountId, settings));
  });

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

const credentials = program.command('credentials').description('the breached-credentials store (docs/credentials.md)');
credentials
  .command('import <files...>')
  .description(
    'import breach corpora (plain or gzip; lines `username:password` or `username:<sha256 hex>`) into the store under DATA_DIR, in parallel, while the server keeps answering checks; killed, run the same command again to resume; importing the same pairs twice changes nothing',
  )
  .addOption(new Option('--data-dir <dir>', 'the store is DATA_DIR/credentials (the lookup service\'s volume in the distributed mode)').env('DATA_DIR').default('./data'))
  .addOption(new Option('--threads <n>', 'parser threads (default: one per core)'))
  .option('--no-reload', 'do not call the admin API to switch the server over (it notices within a second anyway)')
  .action(async (files: string[], options: { dataDir: string; threads?: string; reload: boolean }) => {
    const threads = options.threads === undefined ? undefined : Number(options.threads);
    if (threads !== undefined && (!Number.isInteger(threads) || threads < 0 || threads > 256)) program.error('--threads must be an integer from 0 to 256');
    const adminKey = program.opts<{ adminKey?: string }>().adminKey;
    const admin = options.reload && adminKey ? client() : undefined;
    const summary = await runCredentialsImport(files, {
      dataDir: options.dataDir,
      key: process.env.CREDENTIALS_KEY,
      threads,
      reload: admin ? () => admin.reloadBreachedCredentials() : undefined,
    }).catch((error: unknown) => {
      process.stderr.write('ringfence: the import stopped; run the same command again to resume it\n');
      throw error;
    });
    const malformed = Object.values(summary.malformed).reduce((sum, count) => sum + count, 0);
    process.stderr.write(
      `ringfence: ${summary.lines} lines, ${summary.pairs} pairs read, ${summary.newPairs} new, ${summary.storedPairs} in the store; ${malformed} malformed lines${
        summary.malformedLines.length > 0 ? ` (first: ${summary.malformedLines.map((at) => `${at.file}:${at.line}`).join(', ')})` : ''
      }\n`,
    );
    print(summary);
  });

const feed = program.command('feed').description('the warehouse feed of the embedded mode (every accepted event and every decision)');
feed
  .command('topics')
  .description('list the feed topics')
  .action(async () => print(await client().feedTopics()));
feed
  .command('export <topic>')
  .description('write a topic\'s events as JSON lines (one envelope per line) to standard output, oldest first')
  .option('--after <sequence>', 'start after this sequence number (the last one you exported)', '0')
  .option('--account <accountId>', 'only this account\'s events')
  .action(async (topic: string, options: { after: string; account?: string }) => {
    let after = Number(options.after);
    if (!Number.isInteger(after) || after < 0) program.error('--after must be a non-negative integer');
    const admin = client();
    let exported = 0;
    for (;;) {
      const page = await admin.readFeed(topic, after, options.account);
      for (const event of page.events) process.stdout.write(`${JSON.stringify({ sequence: event.sequence, key: event.key, ...event.envelope })}\n`);
      exported += page.events.length;
      after = page.next;
      if (page.done) break;
    }
    process.stderr.write(`ringfence: ${exported} events exported from ${topic}; continue with --after ${after}\n`);
  });

// The public API's traffic commands: the account's secret key, the same TLS options as the admin commands.
function apiConnection(): ApiConnection {
  const options = program.opts<{ url: string; adminKey?: string; ca?: string; insecure: boolean }>();
  return { baseUrl: options.url, caFile: caFileOf(options.ca), insecure: options.insecure, ...(options.adminKey ? { adminKey: options.adminKey } : {}) };
}
registerSimulateCommand(program, apiConnection);
registerImportCommand(program, apiConnection);
registerModelCommand(program, apiConnection);
registerUsersCommand(program, apiConnection);

program.parseAsync(process.argv).catch((error: unknown) => {
  const detail = error instanceof AdminApiError ? `${error.status} ${error.message}${error.traceId ? ` (traceId ${error.traceId})` : ''}` : String(error instanceof Error ? error.message : error);
  process.stderr.write(`ringfence: ${detail}\n`);
  process.exit(1);
});
