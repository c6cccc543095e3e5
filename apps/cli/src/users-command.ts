import { type Command, Option } from 'commander';
import { PublicApiClient } from './public-api-client';
import type { ApiConnection } from './traffic-sender';

const ROLES = ['viewer', 'analyst', 'rule_author', 'admin'];

export interface NewUser {
  email: string;
  name: string;
  role: string;
  password: string;
}

/** The people API (issue 37) with the account's secret key: the account's first admin, and the others. */
export class UsersClient extends PublicApiClient {
  create(user: NewUser): Promise<unknown> {
    return this.call('POST', '/v2/users', user);
  }

  list(): Promise<unknown> {
    return this.call('GET', '/v2/users');
  }
}

/** Standard input, all of it, without the line end a shell's echo or a file leaves; the password never travels in a flag (ps, shell history). */
export async function readPasswordFrom(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

interface CreateOptions {
  key?: string;
  email: string;
  name: string;
  role: string;
  passwordStdin: boolean;
}

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

const keyOption = () => new Option('--key <secret key>', "the account's secret API key (sk_…), sent as `Authorization: token <key>`").env('RINGFENCE_API_KEY');

/**
 * `ringfence users create|list`: the account's people (docs/api.md, "People") with its secret
 * key, which makes the first admin. Answers other than 2xx are thrown (the program prints them
 * and exits 1).
 */
export function registerUsersCommand(program: Command, connection: () => ApiConnection, input: NodeJS.ReadableStream = process.stdin): void {
  const clientFor = (command: Command, key: string | undefined): UsersClient => {
    if (!key) command.error('the secret API key is required: pass --key or set RINGFENCE_API_KEY');
    return new UsersClient({ ...connection(), apiKey: key });
  };
  const users = program.command('users').description("the account's people who sign in to the console (issue 37)");
  users
    .command('create')
    .description('make a person of the account (the first admin, with the secret key), and print them')
    .addOption(keyOption())
    .requiredOption('--email <address>', 'what they sign in with')
    .requiredOption('--name <name>', 'their name, shown with what they do')
    .addOption(new Option('--role <role>', 'what they may do').choices(ROLES).makeOptionMandatory())
    .option('--password-stdin', 'read the password (12 to 256 characters) from standard input', false)
    .action(async (options: CreateOptions, command: Command) => {
      if (!options.passwordStdin) command.error('the password is read from standard input only: pass --password-stdin and pipe it in');
      const password = await readPasswordFrom(input);
      const client = clientFor(command, options.key);
      try {
        print(await client.create({ email: options.email, name: options.name, role: options.role, password }));
      } finally {
        client.close();
      }
    });
  users
    .command('list')
    .description("list the account's people, oldest first")
    .addOption(keyOption())
    .action(async (options: { key?: string }, command: Command) => {
      const client = clientFor(command, options.key);
      try {
        print(await client.list());
      } finally {
        client.close();
      }
    });
}
