import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_KEY_REPOSITORY, ApiKeyAuthenticator, type ApiKeyRepository, type Principal } from '@ringfence/accounts';
import { AppError, type RingfenceConfig } from '@ringfence/platform';
import type { FastifyRequest } from 'fastify';
import { RINGFENCE_CONFIG } from '../tokens';
import { ROUTE_ACCESS, type RouteAccess } from './route-access.decorator';

type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * The global guard: reads each route's declared access and checks the `Authorization` header
 * against it. A route that declares nothing is refused, so nothing is open by accident.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly authenticator: ApiKeyAuthenticator;
  private readonly adminTokenHash: Buffer | null;

  constructor(
    private readonly reflector: Reflector,
    @Inject(API_KEY_REPOSITORY) keys: ApiKeyRepository,
    @Inject(RINGFENCE_CONFIG) config: RingfenceConfig,
  ) {
    this.authenticator = new ApiKeyAuthenticator(keys);
    this.adminTokenHash = config.adminApiKey ? sha256(config.adminApiKey) : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    switch (access) {
      case 'public':
        return true;
      case 'admin':
        return this.checkAdmin(request.headers.authorization);
      case 'secret-key':
        request.principal = await this.authenticator.authenticate(request.headers.authorization);
        if (request.principal.keyKind !== 'secret') {
          throw new AppError('FORBIDDEN', 'this endpoint needs a secret key (sk_…); publishable keys are for the client SDKs');
        }
        return true;
      case undefined:
        throw new AppError('INTERNAL', `route ${request.method} ${request.routeOptions.url} declares no access`);
    }
  }

  private checkAdmin(header: string | undefined): boolean {
    if (!this.adminTokenHash) throw new AppError('FORBIDDEN', 'the admin API is disabled: ADMIN_API_KEY is not set');
    const token = header ? /^token\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    if (!token) throw new AppError('UNAUTHENTICATED', 'Authorization header missing or malformed; send "Authorization: token <admin token>"');
    // Hashing first gives equal lengths, so the comparison time says nothing about the token.
    if (timingSafeEqual(sha256(token), this.adminTokenHash)) return true;
    if (/^(pk|publishable_key|sk|secret_key)_(test|live)_/.test(token)) {
      throw new AppError('FORBIDDEN', 'the admin API needs the admin token, not an account key');
    }
    throw new AppError('UNAUTHENTICATED', 'admin token unknown');
  }
}

/** The principal the guard authenticated (only on secret-key routes). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new AppError('INTERNAL', 'no principal on a route that needs one');
  return principal;
});
