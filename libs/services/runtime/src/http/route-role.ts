import { type Principal, USER_ROLES, type UserRole, roleIncludes } from '@ringfence/accounts';
import { AppError } from '@ringfence/platform';
import type { RouteRole } from './route-access.decorator';

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The role a route needs of a console session: its declared one, else by its method (issue 37). */
export function neededRole(declared: RouteRole | undefined, method: string): RouteRole {
  if (declared === 'integration' || (declared !== undefined && (USER_ROLES as readonly string[]).includes(declared))) return declared;
  return READ_METHODS.has(method.toUpperCase()) ? 'viewer' : 'analyst';
}

/** Throws 403 when the principal is a person whose role is below the route's; a key passes. */
export function assertRole(principal: Principal, needed: RouteRole): void {
  const user = principal.user;
  if (!user) return;
  if (needed === 'integration') {
    throw new AppError('FORBIDDEN', "this endpoint is for integrations: send the account's secret key (sk_…); a console session may not call it");
  }
  if (!roleIncludes(user.role, needed as UserRole)) {
    throw new AppError('FORBIDDEN', `this action needs the role ${needed}; you are signed in as ${user.role}`);
  }
}
