// The roles and sessions as the console holds them, and what a role may do: no browser storage
// here (session.ts keeps the session), so unit specs read it too.

/** The console's roles, weakest first (the server's USER_ROLES): each may do what the ones before it may. */
export const ROLES = ['viewer', 'analyst', 'rule_author', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The person a session token stands for (issue 37), as `POST /v2/sessions` answered. */
export interface SessionPerson {
  userId: string;
  email: string;
  name: string;
  role: Role;
  environment: 'test' | 'live';
  /** Epoch ms: the server refuses the token from then on. */
  expiresAt: number;
}

export interface Session {
  /** What every request sends as `Authorization: token <key>`: a person's session token (`rfs_…`) or a secret key. */
  key: string;
  /** With a secret key: recorded as the `reviewer.name` of the labels applied; optional. A person is named by the server. */
  reviewer: string;
  /** The signed-in person; absent when the console was opened with a secret key (an account owner). */
  person?: SessionPerson;
}

/**
 * Whether the session may do what `needed` allows: no session may do nothing; a secret key (a
 * session with no person) everything; a person by their role. Pages hide or disable what the role
 * may not do; the server enforces it anyway.
 */
export function mayAct(session: Pick<Session, 'person'> | null | undefined, needed: Role): boolean {
  if (!session) return false;
  if (!session.person) return true;
  return ROLES.indexOf(session.person.role) >= ROLES.indexOf(needed);
}
