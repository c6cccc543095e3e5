// The credential lives in sessionStorage only: it is gone when the tab closes, never written to
// disk by the console, never put in a URL, and signing out forgets it at once.
const KEY = 'ringfence.console.key';
const REVIEWER = 'ringfence.console.reviewer';
const PERSON = 'ringfence.console.person';

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

export function readSession(): Session | null {
  const key = sessionStorage.getItem(KEY);
  if (!key) return null;
  const person = parsePerson(sessionStorage.getItem(PERSON));
  if (key.startsWith('rfs_') && (!person || person.expiresAt <= Date.now())) {
    forgetSession();
    return null;
  }
  return { key, reviewer: person?.name ?? sessionStorage.getItem(REVIEWER) ?? '', ...(person ? { person } : {}) };
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(KEY, session.key);
  if (session.reviewer) sessionStorage.setItem(REVIEWER, session.reviewer);
  else sessionStorage.removeItem(REVIEWER);
  if (session.person) sessionStorage.setItem(PERSON, JSON.stringify(session.person));
  else sessionStorage.removeItem(PERSON);
}

export function forgetSession(): void {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(REVIEWER);
  sessionStorage.removeItem(PERSON);
}

function parsePerson(text: string | null): SessionPerson | undefined {
  if (!text) return undefined;
  try {
    const person = JSON.parse(text) as SessionPerson;
    return typeof person.email === 'string' && (ROLES as readonly string[]).includes(person.role) ? person : undefined;
  } catch {
    return undefined;
  }
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

/** The data set the session acts on. */
export function environmentOf(session: Session): 'test' | 'live' {
  return session.person?.environment ?? (session.key.includes('_live_') ? 'live' : 'test');
}

export const ROLE_LABELS: Record<Role, string> = { viewer: 'viewer', analyst: 'analyst', rule_author: 'rule author', admin: 'admin' };
