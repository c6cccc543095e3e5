import { USER_ROLES, type UserRole } from '../api-key-authenticator';

/** Whether `role` may do what `needed` allows: roles are ordered, each includes the ones before it. */
export function roleIncludes(role: UserRole, needed: UserRole): boolean {
  return USER_ROLES.indexOf(role) >= USER_ROLES.indexOf(needed);
}

export function isUserRole(value: unknown): value is UserRole {
  return typeof value === 'string' && (USER_ROLES as readonly string[]).includes(value);
}
