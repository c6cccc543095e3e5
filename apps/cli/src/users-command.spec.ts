import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Command } from 'commander';
import { AdminApiError } from './admin-client';
import { readPasswordFrom, registerUsersCommand } from './users-command';

const KEY = 'sk_test_people';

/** The people API played by a real local HTTP server: records each request, answers 201 or 409. */
class UsersApiStub {
  readonly requests: Array<{ method: string; path: string; authorization?: string; body: unknown }> = [];
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = (text ? JSON.parse(text) : undefined) as { email?: string } | undefined;
        this.requests.push({ method: request.method ?? 'GET', path: request.url ?? '/', authorization: request.headers.authorization, body });
        const taken = body?.email === 'taken@shop.example';
        response.writeHead(taken ? 409 : 201, { 'content-type': 'application/json' });
        response.end(JSON.stringify(taken ? { status: 409, message: 'email: a user with this e-mail address exists', timestamp: 1, traceId: 't' } : { status: 201, timestamp: 1, data: { userId: 'usr_1', email: body?.email } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('ringfence users', () => {
  let api: UsersApiStub;
  let stdout: string[];

  beforeEach(async () => {
    api = new UsersApiStub();
    await api.start();
    stdout = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (stdout.push(String(chunk)), true));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await api.stop();
  });

  const ringfence = async (stdin: string, ...args: string[]): Promise<void> => {
    const program = new Command().exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
    registerUsersCommand(program, () => ({ baseUrl: api.url, insecure: false }), Readable.from([Buffer.from(stdin)]));
    await program.parseAsync(['node', 'ringfence', 'users', ...args]);
  };

  it('create posts the person with the password read from standard input (its line end dropped), with the key, and prints the answer', async () => {
    await ringfence('a long enough password\n', 'create', '--key', KEY, '--email', 'ann@shop.example', '--name', 'Ann Lee', '--role', 'admin', '--password-stdin');

    expect(api.requests).toEqual([
      { method: 'POST', path: '/v2/users', authorization: `token ${KEY}`, body: { email: 'ann@shop.example', name: 'Ann Lee', role: 'admin', password: 'a long enough password' } },
    ]);
    expect(JSON.parse(stdout.join(''))).toEqual({ status: 201, timestamp: 1, data: { userId: 'usr_1', email: 'ann@shop.example' } });
  });

  it("throws the API's refusal with its status and message", async () => {
    await expect(ringfence('a long enough password', 'create', '--key', KEY, '--email', 'taken@shop.example', '--name', 'T', '--role', 'viewer', '--password-stdin')).rejects.toEqual(
      expect.objectContaining({ status: 409, message: 'email: a user with this e-mail address exists' }),
    );
    await expect(ringfence('x', 'create', '--key', KEY, '--email', 'taken@shop.example', '--name', 'T', '--role', 'viewer', '--password-stdin')).rejects.toBeInstanceOf(AdminApiError);
  });

  it('refuses an unknown role and a password given any other way than standard input, sending nothing', async () => {
    await expect(ringfence('pw', 'create', '--key', KEY, '--email', 'a@shop.example', '--name', 'A', '--role', 'owner', '--password-stdin')).rejects.toThrow(/owner/);
    await expect(ringfence('pw', 'create', '--key', KEY, '--email', 'a@shop.example', '--name', 'A', '--role', 'viewer')).rejects.toThrow();

    expect(api.requests).toEqual([]);
  });

  it('reads a password without its CRLF line end, and keeps inner spaces', async () => {
    await expect(readPasswordFrom(Readable.from([Buffer.from('  two words  \r\n')]))).resolves.toBe('  two words  ');
  });
});
