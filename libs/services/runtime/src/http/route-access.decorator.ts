import { SetMetadata, applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { UserRole } from '@ringfence/accounts';

/**
 * Every route declares who may call it; the access guard refuses a route that does not (so a
 * new controller cannot be left open by accident).
 */
export type RouteAccess = 'public' | 'admin' | 'secret-key' | 'publishable-key' | 'internal';
export const ROUTE_ACCESS = 'ringfence:route-access';

/** No credentials: health, metrics, documentation. */
export const PublicRoute = () => SetMetadata(ROUTE_ACCESS, 'public' satisfies RouteAccess);
/** The operator's admin token (`ADMIN_API_KEY`). */
export const AdminRoute = () => SetMetadata(ROUTE_ACCESS, 'admin' satisfies RouteAccess);
/** A merchant's secret API key; publishable keys get 403. */
export const SecretKeyRoute = () => SetMetadata(ROUTE_ACCESS, 'secret-key' satisfies RouteAccess);

/** The Fastify route config flag of the client-SDK routes (`hooks/client-routes.hook.ts`). */
export const CLIENT_ROUTE_CONFIG = 'ringfenceClientRoute';

/**
 * A client SDK's route (ADR-0015: the shopper's browser or app): a publishable
 * key only, in the `Authorization` header or the `key` query parameter (a beacon cannot set
 * headers); the request's `Origin`, when it has one, must be one of the key's data set's
 * `allowedOrigins`. Its body may come as `text/plain` JSON and is at most 32 KiB.
 */
export const PublishableKeyRoute = () => applyDecorators(SetMetadata(ROUTE_ACCESS, 'publishable-key' satisfies RouteAccess), RouteConfig({ [CLIENT_ROUTE_CONFIG]: true }));
/**
 * A service's internal route, for the gateway only: the internal credential (`INTERNAL_API_KEY`,
 * ADR-0016). Neither the admin token nor an account key opens it.
 */
export const InternalRoute = () => SetMetadata(ROUTE_ACCESS, 'internal' satisfies RouteAccess);

/**
 * Issue 37: the role a console session needs on a secret-key route ('integration': no session
 * at all, the route is for an integration's secret key). Undeclared, a read (GET, HEAD) needs
 * `viewer` and any other method `analyst`. A secret key passes every role.
 */
export type RouteRole = UserRole | 'integration';
export const ROUTE_ROLE = 'ringfence:route-role';

/** A console session needs at least this role here (403 naming it otherwise). */
export const RequiresRole = (role: UserRole) => SetMetadata(ROUTE_ROLE, role satisfies RouteRole);
/**
 * An integration's route (checkpoint events, PSP feeds, backfills, lookups): a secret key only;
 * a console session is refused with 403 whatever its role (a person never posts events as the
 * merchant's back end).
 */
export const IntegrationRoute = () => SetMetadata(ROUTE_ROLE, 'integration' satisfies RouteRole);
