import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { hashApiKey } from '@ringfence/accounts';
import { InMemoryAccountRepository, InMemoryApiKeyRepository } from '@ringfence/accounts/testing';
import { AppError, RateLimitedError, loadConfig } from '@ringfence/platform';
import { AccessGuard } from './access.guard';
import { OPERATOR_CREDENTIAL_FAILURES_PER_ADDRESS, OperatorCredentialAttempts } from './operator-credential-attempts';
import { RequestCredentials } from './request-credentials';
import { ROUTE_ACCESS, type RouteAccess, type RouteRole } from './route-access.decorator';

const ADMIN_TOKEN = 'admin-token-for-guard-tests-0123456789';
const INTERNAL_CREDENTIAL = 'internal-credential-for-guard-tests-0123456789';
const ACCOUNT_KEY = 'sk_test_guardtestsaccountkey0123';

async function guard(): Promise<AccessGuard> {
  const accounts = new InMemoryAccountRepository();
  const keys = new InMemoryApiKeyRepository(accounts);
  await accounts.insert({ id: 'acc_1', name: 'acme', industry: null, settings: {}, createdAt: new Date() });
  await keys.insert({ id: 'key_1', accountId: 'acc_1', kind: 'secret', environment: 'test', keyHash: hashApiKey(ACCOUNT_KEY), displayPrefix: 'sk_test_guar', createdAt: new Date(), revokedAt: null });
  const config = loadConfig({ PORT: '0', ADMIN_API_KEY: ADMIN_TOKEN, INTERNAL_API_KEY: INTERNAL_CREDENTIAL }, { port: 8443 });
  // The route's declared access, as the decorators would give it.
  const reflector = { getAllAndOverride: (key: string) => (key === ROUTE_ACCESS ? access : role) } as unknown as Reflector;
  return new AccessGuard(reflector, new RequestCredentials(keys, config), new OperatorCredentialAttempts());
}

let access: RouteAccess = 'admin';
let role: RouteRole | undefined;

/** One request to a route of `routeAccess` from `ip`, as Nest hands it to the guard. */
function attempt(target: AccessGuard, routeAccess: RouteAccess, ip: string, token?: string): Promise<boolean> {
  access = routeAccess;
  const request = { raw: {}, headers: token === undefined ? {} : { authorization: `token ${token}` }, ip, method: 'GET', routeOptions: { url: '/' } };
  const context = { getHandler: () => undefined, getClass: () => undefined, switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  return target.canActivate(context);
}

describe(AccessGuard.name, () => {
  describe('failed attempts at the operator credentials (ADR-0016)', () => {
    it('refuses an address past its failures with 429 on admin routes, the right token included, and lets other addresses in', async () => {
      const target = await guard();
      for (let i = 0; i < OPERATOR_CREDENTIAL_FAILURES_PER_ADDRESS; i += 1) {
        await expect(attempt(target, 'admin', '203.0.113.1', `wrong-admin-token-${i}-0123456789`)).rejects.toMatchObject({ status: 401 });
      }

      const throttled = attempt(target, 'admin', '203.0.113.1', ADMIN_TOKEN);
      await expect(throttled).rejects.toBeInstanceOf(RateLimitedError);
      await expect(throttled).rejects.toMatchObject({ status: 429, retryAfterSeconds: expect.any(Number), message: expect.stringMatching(/too many failed admin-token attempts/) });
      await expect(attempt(target, 'admin', '203.0.113.2', ADMIN_TOKEN)).resolves.toBe(true);
    });

    it('throttles wrong internal credentials on internal routes the same way, against the same count', async () => {
      const target = await guard();
      for (let i = 0; i < OPERATOR_CREDENTIAL_FAILURES_PER_ADDRESS / 2; i += 1) {
        await expect(attempt(target, 'admin', '198.51.100.7', `wrong-admin-token-${i}-0123456789`)).rejects.toMatchObject({ status: 401 });
        await expect(attempt(target, 'internal', '198.51.100.7', `wrong-internal-credential-${i}-0123456789`)).rejects.toMatchObject({ status: 401 });
      }

      await expect(attempt(target, 'internal', '198.51.100.7', INTERNAL_CREDENTIAL)).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/internal-credential attempts/) });
      await expect(attempt(target, 'internal', '198.51.100.8', INTERNAL_CREDENTIAL)).resolves.toBe(true);
    });

    it('does not count a request without a token, or an account key on an admin route, as an attempt', async () => {
      const target = await guard();
      for (let i = 0; i <= OPERATOR_CREDENTIAL_FAILURES_PER_ADDRESS; i += 1) {
        await expect(attempt(target, 'admin', '192.0.2.5')).rejects.toMatchObject({ status: 401 });
        await expect(attempt(target, 'admin', '192.0.2.5', ACCOUNT_KEY)).rejects.toMatchObject({ status: 403 });
      }

      await expect(attempt(target, 'admin', '192.0.2.5', ADMIN_TOKEN)).resolves.toBe(true);
    });

    it('counts an IPv6 client by its /64: another address of the subnet is the same client', async () => {
      const target = await guard();
      for (let i = 0; i < OPERATOR_CREDENTIAL_FAILURES_PER_ADDRESS; i += 1) {
        await expect(attempt(target, 'admin', `2001:db8:0:1::${i + 1}`, `wrong-admin-token-${i}-0123456789`)).rejects.toBeInstanceOf(AppError);
      }

      await expect(attempt(target, 'admin', '2001:db8:0:1:ffff::1', ADMIN_TOKEN)).rejects.toMatchObject({ status: 429 });
      await expect(attempt(target, 'admin', '2001:db8:0:2::1', ADMIN_TOKEN)).resolves.toBe(true);
    });
  });
});
