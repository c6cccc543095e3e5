import { SetMetadata } from '@nestjs/common';

/**
 * Every route declares who may call it; the access guard refuses a route that does not (so a
 * new controller cannot be left open by accident).
 */
export type RouteAccess = 'public' | 'admin' | 'secret-key' | 'internal';
export const ROUTE_ACCESS = 'ringfence:route-access';

/** No credentials: health, metrics, documentation. */
export const PublicRoute = () => SetMetadata(ROUTE_ACCESS, 'public' satisfies RouteAccess);
/** The operator's admin token (`ADMIN_API_KEY`). */
export const AdminRoute = () => SetMetadata(ROUTE_ACCESS, 'admin' satisfies RouteAccess);
/** A merchant's secret API key; publishable keys get 403. */
export const SecretKeyRoute = () => SetMetadata(ROUTE_ACCESS, 'secret-key' satisfies RouteAccess);
/**
 * A service's internal route, for the gateway only: the internal credential (`INTERNAL_API_KEY`,
 * ADR-0016). Neither the admin token nor an account key opens it.
 */
export const InternalRoute = () => SetMetadata(ROUTE_ACCESS, 'internal' satisfies RouteAccess);
