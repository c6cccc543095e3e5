import { ROLES, type Role, type Session, type SessionPerson } from './roles';

export { ROLES, type Role, type Session, type SessionPerson, mayAct } from './roles';

// The credential lives in sessionStorage only: it is gone when the tab closes, never written to
// disk by the console, never put in a URL, and signing out forgets it at once.
const KEY = 'ringfence.console.key';
const REVIEWER = 'ringfence.console.reviewer';
const PERSON = 'ringfence.console.person';

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

/** The data set the session acts on. */
export function environmentOf(session: Session): 'test' | 'live' {
  return session.person?.environment ?? (session.key.includes('_live_') ? 'live' : 'test');
}

export const ROLE_LABELS: Record<Role, string> = { viewer: 'viewer', analyst: 'analyst', rule_author: 'rule author', admin: 'admin' };
