import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildService, freePort, spawnService } from '../../support/child-service';
import { type TestRequest, type TestResponse, TestHttpClient } from '../../support/https-client';

/** The operator's admin token of every server of this tier. */
export const ADMIN_TOKEN = 'adversarial-tier-admin-token-0123456789';

/**
 * How long a request of this tier waits with no answer. A service that stopped answering (a
 * regular expression backtracking on its event loop, a wedged writer) fails the test in seconds,
 * with the request it did not answer, rather than at jest's timeout.
 */
export const REQUEST_TIMEOUT_MS = 5_000;

/** How long a stopped service may take to end gracefully before it is killed: a blocked event loop never runs the SIGTERM handler. */
const STOP_GRACE_MS = 3_000;

export type Role = 'attacker' | 'victim';

/** An account of the server, with the keys the admin API gave it once. */
export interface Tenant {
  role: Role;
  accountId: string;
  name: string;
  secretTest: string;
  secretLive: string;
}

type CreatedAccount = { accountId: string; name: string; keys: { secretTest: string; secretLive: string } };

let accountSequence = 0;

/**
 * The built embedded server (`dist/apps/standalone`, as `npm start` runs it) in a child process,
 * over HTTPS on a port and a DATA_DIR of its own, with the admin API on: what an attacker on the
 * internet reaches. Every request has a short timeout, and `dispose` kills the process when it
 * does not stop, so a test of this tier ends within seconds even when the service hangs.
 */
export class AdversarialServer {
  private service!: ChildService;
  private client!: TestHttpClient;

  private constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts a server with `env` on top of the tier's defaults (a free port, a new DATA_DIR, the admin token). */
  static async start(env: Record<string, string> = {}): Promise<AdversarialServer> {
    const server = new AdversarialServer(await freePort(), mkdtempSync(join(tmpdir(), 'ringfence-adversarial-')), env);
    try {
      await server.boot();
    } catch (error) {
      await server.dispose();
      throw error;
    }
    return server;
  }

  /** The URL a client of this server uses. */
  get origin(): string {
    return `https://localhost:${this.port}`;
  }

  /** The server's self-signed certificate, for clients that open their own connections. */
  get certificate(): string {
    return readFileSync(join(this.dataDir, 'tls', 'cert.pem'), 'utf8');
  }

  /** The process's last lines of output, for a failure's message. */
  recentOutput(lines = 20): string {
    return this.service.output.slice(-lines).join('\n');
  }

  send<T = Record<string, unknown>>(request: TestRequest): Promise<TestResponse<T>> {
    return this.client.send<T>({ timeoutMs: REQUEST_TIMEOUT_MS, ...request });
  }

  /** A new account through the admin API (ADR-0002), named after its role in the test. */
  async createTenant(role: Role): Promise<Tenant> {
    const name = `${role}-${Date.now().toString(36)}-${(accountSequence += 1)}`;
    const created = await this.send<CreatedAccount>({ method: 'POST', path: '/admin/accounts', body: { name }, apiKey: ADMIN_TOKEN });
    if (created.status !== 201) throw new Error(`could not create the ${role}'s account: ${created.status} ${created.text}`);
    const { accountId, keys } = created.body;
    return { role, accountId, name, secretTest: keys.secretTest, secretLive: keys.secretLive };
  }

  /** Stops the process (killing it if it does not stop) and starts it again on the same DATA_DIR and port. */
  async restart(): Promise<void> {
    await this.stop();
    await this.boot();
  }

  /** Stops the process, killed after a short grace, and removes its DATA_DIR. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async boot(): Promise<void> {
    this.service = spawnService('standalone', {
      PORT: String(this.port),
      DATA_DIR: this.dataDir,
      ADMIN_API_KEY: ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      ...this.env,
    });
    await this.service.waitForOutput(/"msg":"listening"/, 60_000);
    this.client = new TestHttpClient(this.origin, this.certificate);
  }

  private async stop(): Promise<void> {
    const { process: child, exited } = this.service;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS).unref())]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}
