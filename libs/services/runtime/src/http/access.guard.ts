import { type CanActivate, type ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from '@ringfence/accounts';
import { AppError, RateLimitedError } from '@ringfence/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticateClient } from './client-access';
import { clientAddressKey } from './client-address';
import { OperatorCredentialAttempts } from './operator-credential-attempts';
import { RequestCredentials } from './request-credentials';
import { ROUTE_ACCESS, ROUTE_ROLE, type RouteAccess, type RouteRole } from './route-access.decorator';
import { assertRole, neededRole } from './route-role';

type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/**
 * The global guard: reads each route's declared access and checks the request's credential
 * (`RequestCredentials`, read once per request) against it. A route that declares nothing is
 * refused, so nothing is open by accident.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: RequestCredentials,
    private readonly operatorAttempts: OperatorCredentialAttempts,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    switch (access) {
      case 'public':
        return true;
      case 'admin':
        return this.checkAdmin(request);
      case 'internal':
        return this.checkInternal(request);
      case 'secret-key': {
        const { apiKey } = await this.credentials.of(request);
        if (apiKey instanceof AppError) throw apiKey;
        if (apiKey.keyKind !== 'secret') {
          throw new AppError('FORBIDDEN', 'this endpoint needs a secret key (sk_…); publishable keys are for the client SDKs');
        }
        // Issue 37: a console session stands for a person, who needs the route's role.
        const declaredRole = this.reflector.getAllAndOverride<RouteRole | undefined>(ROUTE_ROLE, [context.getHandler(), context.getClass()]);
        assertRole(apiKey, neededRole(declaredRole, request.method));
        request.principal = apiKey;
        return true;
      }
      case 'publishable-key':
        request.principal = await authenticateClient(this.credentials, request, context.switchToHttp().getResponse<FastifyReply>());
        return true;
      case undefined:
        throw new AppError('INTERNAL', `route ${request.method} ${request.routeOptions.url} declares no access`);
    }
  }

  /**
   * ADR-0016: the gateway's calls to a service's internal routes carry the internal
   * credential, and only it. The admin token is refused here like any other token, so the
   * operator's credential and the services' never stand in for each other.
   */
  private async checkInternal(request: FastifyRequest): Promise<boolean> {
    if (!this.credentials.internalCredentialConfigured) throw new AppError('FORBIDDEN', 'the internal routes are disabled: INTERNAL_API_KEY is not set');
    const address = await this.refuseThrottledAddress(request, 'internal-credential');
    const { token, isInternalCredential } = await this.credentials.of(request);
    if (isInternalCredential) return true;
    if (token === undefined) throw new AppError('UNAUTHENTICATED', 'Authorization header missing or malformed; send "Authorization: token <internal credential>"');
    await this.operatorAttempts.recordFailure(address);
    throw new AppError('UNAUTHENTICATED', 'internal credential unknown');
  }

  private async checkAdmin(request: FastifyRequest): Promise<boolean> {
    if (!this.credentials.adminTokenConfigured) throw new AppError('FORBIDDEN', 'the admin API is disabled: ADMIN_API_KEY is not set');
    const address = await this.refuseThrottledAddress(request, 'admin-token');
    const { token, isAdminToken, apiKey } = await this.credentials.of(request);
    if (isAdminToken) return true;
    if (token === undefined) throw new AppError('UNAUTHENTICATED', 'Authorization header missing or malformed; send "Authorization: token <admin token>"');
    // An account's own key guesses nothing: it is a mistake, not an attempt at the token.
    const isAccountKey = !(apiKey instanceof AppError);
    if (!isAccountKey) await this.operatorAttempts.recordFailure(address);
    if (isAccountKey || /^(pk|publishable_key|sk|secret_key)_(test|live)_/.test(token)) {
      throw new AppError('FORBIDDEN', 'the admin API needs the admin token, not an account key');
    }
    throw new AppError('UNAUTHENTICATED', 'admin token unknown');
  }

  /** The request's client address, once it is not past its failed attempts (else 429, ADR-0016). */
  private async refuseThrottledAddress(request: FastifyRequest, credential: 'admin-token' | 'internal-credential'): Promise<string> {
    const address = clientAddressKey(request.ip);
    const retryAfterSeconds = await this.operatorAttempts.retryAfterSeconds(address);
    if (retryAfterSeconds !== null) {
      throw new RateLimitedError(retryAfterSeconds, `too many failed ${credential} attempts from this address; retry after ${retryAfterSeconds} s`);
    }
    return address;
  }
}

/** The principal the guard authenticated (only on secret-key and publishable-key routes). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new AppError('INTERNAL', 'no principal on a route that needs one');
  return principal;
});
